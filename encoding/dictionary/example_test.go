package dictionary_test

import (
	"errors"
	"fmt"

	"github.com/pqcodec/pqcodec/encoding/dictionary"
)

func ExampleDict() {
	enc := dictionary.NewEncoder[int64](0)
	if _, err := enc.Put([]int64{10, 20, 10, 10, 30}); err != nil {
		panic(err)
	}
	dictPage := enc.AppendDictionaryPage(nil)
	indexPage := enc.AppendIndexPage(nil)

	var dict dictionary.Dict[int64]
	if err := dict.Reset(dictPage, enc.Len()); err != nil {
		panic(err)
	}
	values, err := dict.Decode(nil, indexPage, 5)
	fmt.Println(dict.Values(), values, err)
	// Output: [10 20 30] [10 20 10 10 30] <nil>
}

func ExampleEncoder_Put() {
	enc := dictionary.NewEncoder[int32](8) // room for two values
	n, err := enc.Put([]int32{1, 2, 1, 3, 4})
	fmt.Println(n, errors.Is(err, dictionary.ErrFull))
	// Output: 3 true
}

func ExampleBytesDict() {
	enc := dictionary.NewBytesEncoder(0)
	values := []byte("redgreenred")
	if _, err := enc.Put(values, []int32{0, 3, 8, 11}); err != nil {
		panic(err)
	}
	var dict dictionary.BytesDict
	if err := dict.Reset(enc.AppendDictionaryPage(nil), enc.Len()); err != nil {
		panic(err)
	}
	out, offsets, err := dict.Decode(nil, nil, enc.AppendIndexPage(nil), 3)
	fmt.Printf("%s %v %v\n", out, offsets, err)
	// Output: redgreenred [0 3 8 11] <nil>
}
