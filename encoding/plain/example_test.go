package plain_test

import (
	"fmt"

	"github.com/pqcodec/pqcodec/encoding/plain"
)

func ExampleDecode() {
	page := plain.Encode(nil, []int32{1, -2, 3})
	values, err := plain.Decode[int32](nil, page)
	fmt.Println(values, err)
	// Output: [1 -2 3] <nil>
}

func ExampleDecodeByteArray() {
	page := []byte{5, 0, 0, 0, 'h', 'e', 'l', 'l', 'o', 2, 0, 0, 0, 'g', 'o'}
	values, offsets, err := plain.DecodeByteArray(nil, nil, page)
	if err != nil {
		panic(err)
	}
	for i := 0; i+1 < len(offsets); i++ {
		fmt.Printf("%s\n", values[offsets[i]:offsets[i+1]])
	}
	// Output:
	// hello
	// go
}

func ExampleDecodeBoolean() {
	values, err := plain.DecodeBoolean(nil, []byte{0b00000101}, 3)
	fmt.Println(values, err)
	// Output: [true false true] <nil>
}
