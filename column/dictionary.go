package column

import (
	"fmt"

	"github.com/pqcodec/pqcodec/encoding/rle"
)

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
	if p.Indices, err = r.decodeIndices(p.Indices[:0], stream, width, n); err != nil {
		return err
	}
	p.Dictionary = &r.dict
	return nil
}

// decodeIndices appends the n dictionary indices of stream to dst with the
// tuned whole-page kernel, which checks them against the dictionary's size
// in the same pass. On error dst is returned empty.
func (r *Reader) decodeIndices(dst []uint32, stream []byte, width uint, n int) ([]uint32, error) {
	size := r.dict.Len()
	if size == 0 {
		return dst[:0], fmt.Errorf("%w: %d dictionary indices into an empty dictionary", ErrCorrupt, n)
	}
	dst, err := rle.DecodeIndices(dst, stream, width, n, uint32(size-1))
	if err != nil {
		return dst[:0], fmt.Errorf("dictionary indices: %w", err)
	}
	return dst, nil
}

// NumValues returns the number of non-null values in p: the length of
// Values, or of Indices for a page under [KeepDictionary].
func (p *Page) NumValues() int {
	if p.Dictionary != nil {
		return len(p.Indices)
	}
	return p.Values.Len()
}
