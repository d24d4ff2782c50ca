package format

import (
	"fmt"

	"github.com/pqcodec/pqcodec/internal/thrift"
)

// PageLocation is one page of an [OffsetIndex]: where its header starts,
// the size of header and body together, and the index of its first row
// within the row group.
type PageLocation struct {
	Offset             int64
	CompressedPageSize int32
	FirstRowIndex      int64
}

// OffsetIndex is the page index structure that locates the data pages of a
// column chunk (parquet.thrift OffsetIndex). UnencodedByteArrayDataBytes is
// nil when absent.
type OffsetIndex struct {
	PageLocations               []PageLocation
	UnencodedByteArrayDataBytes []int64
}

func (d *decoder) pageLocation(p *PageLocation) error {
	var seen uint8
	saved := d.r.StructBegin()
	for {
		t, id, err := d.r.ReadFieldHeader()
		if err != nil {
			return err
		}
		if t == thrift.Stop {
			break
		}
		switch {
		case id == 1 && isVarint(t):
			p.Offset, err = d.r.ReadI64()
			seen |= 1
		case id == 2 && isVarint(t):
			p.CompressedPageSize, err = d.r.ReadI32()
			seen |= 2
		case id == 3 && isVarint(t):
			p.FirstRowIndex, err = d.r.ReadI64()
			seen |= 4
		default:
			err = d.r.Skip(t)
		}
		if err != nil {
			return err
		}
	}
	d.r.StructEnd(saved)
	if seen != 7 {
		return missing("PageLocation", "offset, compressed_page_size or first_row_index")
	}
	return nil
}

func (d *decoder) offsetIndex(o *OffsetIndex) error {
	var seen bool
	saved := d.r.StructBegin()
	for {
		t, id, err := d.r.ReadFieldHeader()
		if err != nil {
			return err
		}
		if t == thrift.Stop {
			break
		}
		switch {
		case id == 1 && t == thrift.List:
			o.PageLocations, err = list(d, thrift.Struct, d.pageLocation)
			seen = true
		case id == 2 && t == thrift.List:
			o.UnencodedByteArrayDataBytes, err = d.i64List()
		default:
			err = d.r.Skip(t)
		}
		if err != nil {
			return err
		}
	}
	d.r.StructEnd(saved)
	if !seen {
		return missing("OffsetIndex", "page_locations")
	}
	return nil
}

// DecodeOffsetIndex decodes the thrift OffsetIndex at the start of b and
// returns it with the number of bytes it took. Unknown fields are skipped.
// Malformed input returns an error wrapping [ErrCorrupt].
func DecodeOffsetIndex(b []byte) (*OffsetIndex, int, error) {
	var d decoder
	d.r.Reset(b)
	o := new(OffsetIndex)
	if err := d.offsetIndex(o); err != nil {
		return nil, 0, fmt.Errorf("%w: offset index: %w", ErrCorrupt, err)
	}
	return o, d.r.Offset(), nil
}

// AppendOffsetIndex appends the thrift encoding of o to dst and returns the
// extended slice; dst may be nil. UnencodedByteArrayDataBytes is written
// when non-nil.
func AppendOffsetIndex(dst []byte, o *OffsetIndex) []byte {
	var e encoder
	e.w.Reset(dst)
	e.w.StructBegin()
	e.w.WriteFieldHeader(thrift.List, 1)
	e.w.WriteListHeader(thrift.Struct, len(o.PageLocations))
	for _, p := range o.PageLocations {
		e.w.StructBegin()
		e.w.WriteI64Field(1, p.Offset)
		e.w.WriteI32Field(2, p.CompressedPageSize)
		e.w.WriteI64Field(3, p.FirstRowIndex)
		e.w.StructEnd()
	}
	if o.UnencodedByteArrayDataBytes != nil {
		e.i64List(2, o.UnencodedByteArrayDataBytes)
	}
	e.w.StructEnd()
	return e.w.Buf
}

// DecodeBloomFilterHeaderSize decodes the thrift BloomFilterHeader at the
// start of b and returns its encoded length and its numBytes field, the size
// of the bitset that follows it. The algorithm, hash and compression members
// are not interpreted. Malformed input or a negative numBytes returns an
// error wrapping [ErrCorrupt].
func DecodeBloomFilterHeaderSize(b []byte) (headerLen int, numBytes int32, err error) {
	var d decoder
	d.r.Reset(b)
	seen := false
	saved := d.r.StructBegin()
	for {
		t, id, err := d.r.ReadFieldHeader()
		if err != nil {
			return 0, 0, fmt.Errorf("%w: bloom filter header: %w", ErrCorrupt, err)
		}
		if t == thrift.Stop {
			break
		}
		if id == 1 && isVarint(t) {
			numBytes, err = d.r.ReadI32()
			seen = true
		} else {
			err = d.r.Skip(t)
		}
		if err != nil {
			return 0, 0, fmt.Errorf("%w: bloom filter header: %w", ErrCorrupt, err)
		}
	}
	d.r.StructEnd(saved)
	if !seen || numBytes < 0 {
		return 0, 0, fmt.Errorf("%w: bloom filter header: numBytes missing or negative", ErrCorrupt)
	}
	return d.r.Offset(), numBytes, nil
}
