package column

import (
	"fmt"

	"github.com/pqcodec/pqcodec/encoding/rle"
)

// KeepDictionary is the first name of [WithKeepDictionary].
//
// Deprecated: use [WithKeepDictionary].
func KeepDictionary(on bool) Option {
	return func(o *options) error {
		o.keepDictionary = on
		return nil
	}
}

// Dictionary returns the dictionary of the current chunk, or nil before its
// dictionary page has been read (or when it has none). It is owned by the
// Reader and changes when the Reader moves to another chunk.
func (r *Reader) Dictionary() *Values {
	if !r.hasDict {
		return nil
	}
	return &r.dict
}

// keepIndices decodes the n dictionary indices of stream into p.Indices.
func (r *Reader) keepIndices(p *Page, stream []byte, width uint, n int) error {
	var err error
	if p.Indices, err = rle.Decode(p.Indices[:0], stream, width, n); err != nil {
		return err
	}
	size := uint32(r.dict.Len())
	for i, x := range p.Indices {
		if x >= size {
			p.Indices = p.Indices[:0]
			return fmt.Errorf("%w: dictionary index %d at position %d, dictionary holds %d values", ErrCorrupt, x, i, size)
		}
	}
	p.Dictionary = &r.dict
	return nil
}

// NumValues returns the number of non-null values in p: the length of
// Values, or of Indices for a page under [KeepDictionary].
func (p *Page) NumValues() int {
	if p.Dictionary != nil {
		return len(p.Indices)
	}
	return p.Values.Len()
}
