package delta_test

import (
	"fmt"
	"io"

	"github.com/pqcodec/pqcodec/encoding/delta"
)

func ExampleDecodeInt64() {
	page := delta.EncodeInt64(nil, []int64{1700000000000, 1700000000250, 1700000000500})
	fmt.Println(len(page), "bytes")
	values, err := delta.DecodeInt64(nil, page)
	fmt.Println(values, err)
	// Output:
	// 16 bytes
	// [1700000000000 1700000000250 1700000000500] <nil>
}

func ExampleDecoder() {
	page := delta.EncodeInt32(nil, []int32{5, 4, 3, 2, 1})
	var d delta.Decoder[int32]
	if err := d.Reset(page); err != nil {
		panic(err)
	}
	buf := make([]int32, 2)
	for {
		n, err := d.Decode(buf)
		if err == io.EOF {
			break
		}
		if err != nil {
			panic(err)
		}
		fmt.Println(buf[:n])
	}
	// Output:
	// [5 4]
	// [3 2]
	// [1]
}

func ExampleDecodeLengthByteArray() {
	values := []byte("helloworld!")
	offsets := []int32{0, 5, 10, 11}
	page, _ := delta.EncodeLengthByteArray(nil, values, offsets)
	v, o, err := delta.DecodeLengthByteArray(nil, nil, page)
	for i := range len(o) - 1 {
		fmt.Printf("%q ", v[o[i]:o[i+1]])
	}
	fmt.Println(err)
	// Output: "hello" "world" "!" <nil>
}

func ExampleDecodeByteArray() {
	values := []byte("axisaxlebabblebabyhood")
	offsets := []int32{0, 4, 8, 14, 22}
	page, _ := delta.EncodeByteArray(nil, values, offsets)
	v, o, err := delta.DecodeByteArray(nil, nil, page)
	fmt.Println(string(v), o, err)
	// Output: axisaxlebabblebabyhood [0 4 8 14 22] <nil>
}
