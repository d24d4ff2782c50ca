package format

import (
	"fmt"

	"github.com/pqcodec/pqcodec/internal/thrift"
)

// BloomFilterHeader is the thrift BloomFilterHeader that precedes a column
// chunk's bloom filter bitset (parquet.thrift; BloomFilter.md): the size of
// the bitset and, for each of its three unions, the field id of the member
// set. The specification defines one member of each, id 1: the split-block
// algorithm ([BloomBlock]), xxHash64 ([BloomXxHash]) and no compression
// ([BloomUncompressed]); 0 means the union had no member.
type BloomFilterHeader struct {
	NumBytes    int32
	Algorithm   int16
	Hash        int16
	Compression int16
}

// The union members the specification defines, by field id.
const (
	BloomBlock        = 1 // BloomFilterAlgorithm.BLOCK (SplitBlockAlgorithm)
	BloomXxHash       = 1 // BloomFilterHash.XXHASH
	BloomUncompressed = 1 // BloomFilterCompression.UNCOMPRESSED
)

// DecodeBloomFilterHeader decodes the thrift BloomFilterHeader at the start
// of b and returns it with its encoded length. Malformed input, a missing
// or negative numBytes returns an error wrapping [ErrCorrupt]; unknown
// union members are returned for the caller to judge.
func DecodeBloomFilterHeader(b []byte) (BloomFilterHeader, int, error) {
	var h BloomFilterHeader
	var d decoder
	d.r.Reset(b)
	fail := func(err error) (BloomFilterHeader, int, error) {
		return BloomFilterHeader{}, 0, fmt.Errorf("%w: bloom filter header: %w", ErrCorrupt, err)
	}
	seen := false
	saved := d.r.StructBegin()
	for {
		t, id, err := d.r.ReadFieldHeader()
		if err != nil {
			return fail(err)
		}
		if t == thrift.Stop {
			break
		}
		switch {
		case id == 1 && isVarint(t):
			h.NumBytes, err = d.r.ReadI32()
			seen = true
		case id >= 2 && id <= 4 && t == thrift.Struct:
			var member int16
			member, err = d.union()
			switch id {
			case 2:
				h.Algorithm = member
			case 3:
				h.Hash = member
			case 4:
				h.Compression = member
			}
		default:
			err = d.r.Skip(t)
		}
		if err != nil {
			return fail(err)
		}
	}
	d.r.StructEnd(saved)
	if !seen || h.NumBytes < 0 {
		return BloomFilterHeader{}, 0, fmt.Errorf("%w: bloom filter header: numBytes missing or negative", ErrCorrupt)
	}
	return h, d.r.Offset(), nil
}

// union reads a thrift union and returns the field id of its first member
// (0 for none), skipping every member's value.
func (d *decoder) union() (int16, error) {
	var member int16
	var err error
	for t, id := range d.fieldsOf(&err) {
		if member == 0 {
			member = id
		}
		err = d.r.Skip(t)
	}
	if err != nil {
		return 0, err
	}
	return member, nil
}

// AppendBloomFilterHeader appends the thrift encoding of h to dst. A union
// whose member is 0 is written without a member.
func AppendBloomFilterHeader(dst []byte, h *BloomFilterHeader) []byte { return appendStruct(dst, h) }

func (e *encoder) bloomFilterHeader(h *BloomFilterHeader) {
	e.w.StructBegin()
	e.w.WriteI32Field(1, h.NumBytes)
	for i, member := range []int16{h.Algorithm, h.Hash, h.Compression} {
		e.w.WriteFieldHeader(thrift.Struct, int16(2+i))
		e.w.StructBegin()
		if member != 0 {
			// Each member the specification defines is an empty struct.
			e.emptyStructField(member)
		}
		e.w.StructEnd()
	}
	e.w.StructEnd()
}
