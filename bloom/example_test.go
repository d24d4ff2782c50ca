package bloom_test

import (
	"fmt"

	"github.com/pqcodec/pqcodec/bloom"
)

// A writer inserts the hash of each value; a reader checks a value's hash
// before reading a row group.
func Example() {
	f := bloom.NewForNDV(1000, 0.01)
	for _, city := range []string{"Lisbon", "Oslo", "Quito"} {
		f.Insert(bloom.HashBytes([]byte(city)))
	}
	stored := f.MarshalTo(nil) // what a column chunk holds at bloom_filter_offset

	g, _, err := bloom.Unmarshal(stored)
	if err != nil {
		panic(err)
	}
	fmt.Println(g.NumBytes(), g.Check(bloom.HashBytes([]byte("Oslo"))))
	// Output: 2048 true
}
