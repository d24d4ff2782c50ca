package bitpacked_test

import (
	"fmt"

	"github.com/pqcodec/pqcodec/encoding/bitpacked"
)

func ExampleEncode() {
	enc, err := bitpacked.Encode(nil, []uint32{0, 1, 2, 3, 4, 5, 6, 7}, 3)
	fmt.Printf("%08b %v\n", enc, err)
	// Output: [00000101 00111001 01110111] <nil>
}

func ExampleDecode() {
	values, rest, err := bitpacked.Decode(nil, []byte{0b00000101, 0b00111001, 0b01110111}, 3, 8)
	fmt.Println(values, len(rest), err)
	// Output: [0 1 2 3 4 5 6 7] 0 <nil>
}
