package bytestreamsplit_test

import (
	"fmt"
	"io"

	"github.com/pqcodec/pqcodec/encoding/bytestreamsplit"
)

func ExampleDecodeFloat32() {
	page := bytestreamsplit.EncodeFloat32(nil, []float32{1.5, -2, 1e9})
	fmt.Printf("% x\n", page)
	values, err := bytestreamsplit.DecodeFloat32(nil, page)
	fmt.Println(values, err)
	// Output:
	// 00 00 28 00 00 6b c0 00 6e 3f c0 4e
	// [1.5 -2 1e+09] <nil>
}

func ExampleDecoder() {
	page := bytestreamsplit.EncodeInt64(nil, []int64{10, 20, 30, 40, 50})
	var d bytestreamsplit.Decoder[int64]
	if err := d.Reset(page); err != nil {
		panic(err)
	}
	buf := make([]int64, 2)
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
	// [10 20]
	// [30 40]
	// [50]
}

func ExampleDecodeFixedLenByteArray() {
	page, _ := bytestreamsplit.EncodeFixedLenByteArray(nil, []byte("abcxyz"), 3)
	fmt.Printf("%q\n", page)
	values, err := bytestreamsplit.DecodeFixedLenByteArray(nil, page, 3)
	fmt.Printf("%q %v\n", values, err)
	// Output:
	// "axbycz"
	// "abcxyz" <nil>
}
