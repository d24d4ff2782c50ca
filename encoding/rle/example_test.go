package rle_test

import (
	"fmt"

	"github.com/pqcodec/pqcodec/encoding/rle"
)

func ExampleDecode() {
	// One bit-packed group: the values 0..7 with bit width 3.
	values, err := rle.Decode(nil, []byte{0x03, 0x88, 0xC6, 0xFA}, 3, 8)
	fmt.Println(values, err)
	// Output: [0 1 2 3 4 5 6 7] <nil>
}

func ExampleEncode() {
	// Ten threes of width 3 become an RLE run (header 20, value 3), the
	// rest a padded bit-packed group (header 3, then 3 bytes of 3-bit
	// values). At width 1 the same ten repeats would stay bit-packed: an
	// RLE run pays from 16 values there.
	levels := []uint8{3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 0, 1}
	enc, err := rle.Encode(nil, levels, 3)
	fmt.Printf("% x %v\n", enc, err)
	// Output: 14 03 03 08 00 00 <nil>
}

func ExampleDecoder() {
	enc, _ := rle.Encode(nil, []uint32{7, 7, 7, 7, 7, 7, 7, 7, 7, 1, 2}, 3)
	var d rle.Decoder
	if err := d.Reset(enc, 3, 11); err != nil {
		panic(err)
	}
	buf := make([]uint32, 4)
	for {
		n, err := d.Decode(buf)
		if err != nil {
			break // io.EOF at the end
		}
		fmt.Println(buf[:n])
	}
	// Output:
	// [7 7 7 7]
	// [7 7 7 7]
	// [7 1 2]
}
