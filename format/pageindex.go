package format

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/pqcodec/pqcodec/encryption"
	"github.com/pqcodec/pqcodec/internal/thrift"
)

// ColumnIndex is the page index of one column chunk: per data page, whether
// it holds only nulls and its min and max values (encoded as in
// [Statistics], in the column's sort order), and optionally its null count
// and level histograms. Its lists have one entry per data page, in page
// order; [DecodeColumnIndex] checks that they agree.
type ColumnIndex struct {
	NullPages     []bool
	MinValues     [][]byte // empty (not meaningful) for null pages
	MaxValues     [][]byte
	BoundaryOrder BoundaryOrder
	NullCounts    []int64 // nil when absent

	// RepetitionLevelHistograms and DefinitionLevelHistograms hold, per
	// page, max_level+1 counts, concatenated; nil when absent.
	RepetitionLevelHistograms []int64
	DefinitionLevelHistograms []int64
}

// NumPages returns the number of data pages c describes.
func (c *ColumnIndex) NumPages() int { return len(c.NullPages) }

// PageLocation locates one data page of a column chunk.
type PageLocation struct {
	// Offset is the file offset of the page header.
	Offset int64
	// CompressedPageSize is the size of the page, header included.
	CompressedPageSize int32
	// FirstRowIndex is the index, within the row group, of the first row
	// of the page.
	FirstRowIndex int64
}

// OffsetIndex locates the data pages of a column chunk (dictionary and index
// pages are not listed).
type OffsetIndex struct {
	PageLocations []PageLocation
	// UnencodedByteArrayDataBytes is, per page, the size of its BYTE_ARRAY
	// values without length prefixes; nil when absent.
	UnencodedByteArrayDataBytes []int64
}

// NumPages returns the number of data pages o locates.
func (o *OffsetIndex) NumPages() int { return len(o.PageLocations) }

func (d *decoder) boolList() ([]bool, error) {
	return list(d, thrift.Bool, func(v *bool) (err error) { *v, err = d.r.ReadBool(); return })
}

func (d *decoder) binaryList() ([][]byte, error) {
	return list(d, thrift.Binary, func(v *[]byte) (err error) { *v, err = d.binary(); return })
}

func (d *decoder) columnIndex(c *ColumnIndex) error {
	var seen uint32
	var err error
	for t, id := range d.fieldsOf(&err) {
		switch {
		case id == 1 && t == thrift.List:
			c.NullPages, err = d.boolList()
		case id == 2 && t == thrift.List:
			c.MinValues, err = d.binaryList()
		case id == 3 && t == thrift.List:
			c.MaxValues, err = d.binaryList()
		case id == 4 && t == thrift.I32:
			var v int32
			v, err = d.r.ReadI32()
			c.BoundaryOrder = BoundaryOrder(v)
		case id == 5 && t == thrift.List:
			c.NullCounts, err = d.i64List()
		case id == 6 && t == thrift.List:
			c.RepetitionLevelHistograms, err = d.i64List()
		case id == 7 && t == thrift.List:
			c.DefinitionLevelHistograms, err = d.i64List()
		default:
			err = d.r.Skip(t)
			continue
		}
		seen |= 1 << id
	}
	if err != nil {
		return err
	}
	if err := columnIndexFields.check(seen); err != nil {
		return err
	}
	n := len(c.NullPages)
	if len(c.MinValues) != n || len(c.MaxValues) != n || c.NullCounts != nil && len(c.NullCounts) != n {
		return fmt.Errorf("ColumnIndex: %d null_pages, %d min_values, %d max_values, %d null_counts",
			n, len(c.MinValues), len(c.MaxValues), len(c.NullCounts))
	}
	for _, h := range [][]int64{c.RepetitionLevelHistograms, c.DefinitionLevelHistograms} {
		if n > 0 && len(h)%n != 0 {
			return fmt.Errorf("ColumnIndex: level histogram of %d counts for %d pages", len(h), n)
		}
	}
	return nil
}

// pageLocation decodes one PageLocation, one of the millions an offset
// index may hold.
func (d *decoder) pageLocation(p *PageLocation) error {
	var seen uint32
	var err error
	for t, id := range d.fieldsOf(&err) {
		switch {
		case id == 1 && t == thrift.I64:
			p.Offset, err = d.r.ReadI64()
		case id == 2 && t == thrift.I32:
			p.CompressedPageSize, err = d.r.ReadI32()
		case id == 3 && t == thrift.I64:
			p.FirstRowIndex, err = d.r.ReadI64()
		default:
			err = d.r.Skip(t)
			continue
		}
		seen |= 1 << id
	}
	if err != nil {
		return err
	}
	return pageLocationFields.check(seen)
}

var (
	columnIndexFields = required("ColumnIndex", []string{1: "null_pages", 2: "min_values", 3: "max_values",
		4: "boundary_order"})
	pageLocationFields = required("PageLocation", []string{1: "offset", 2: "compressed_page_size",
		3: "first_row_index"})
	offsetIndexFields = required("OffsetIndex", []string{1: "page_locations"})
)

func (d *decoder) offsetIndex(o *OffsetIndex) error {
	var seen uint32
	var err error
	for t, id := range d.fieldsOf(&err) {
		switch {
		case id == 1 && t == thrift.List:
			o.PageLocations, err = list(d, thrift.Struct, d.pageLocation)
		case id == 2 && t == thrift.List:
			o.UnencodedByteArrayDataBytes, err = d.i64List()
		default:
			err = d.r.Skip(t)
			continue
		}
		seen |= 1 << id
	}
	if err != nil {
		return err
	}
	if err := offsetIndexFields.check(seen); err != nil {
		return err
	}
	if o.UnencodedByteArrayDataBytes != nil && len(o.UnencodedByteArrayDataBytes) != len(o.PageLocations) {
		return fmt.Errorf("OffsetIndex: %d unencoded_byte_array_data_bytes for %d pages",
			len(o.UnencodedByteArrayDataBytes), len(o.PageLocations))
	}
	for i, p := range o.PageLocations {
		if p.Offset < 0 || p.CompressedPageSize <= 0 || p.FirstRowIndex < 0 {
			return fmt.Errorf("OffsetIndex: page %d at offset %d of %d bytes, first row %d", i, p.Offset, p.CompressedPageSize, p.FirstRowIndex)
		}
		if i > 0 && p.FirstRowIndex < o.PageLocations[i-1].FirstRowIndex {
			return fmt.Errorf("OffsetIndex: page %d starts at row %d, before page %d (row %d)", i, p.FirstRowIndex, i-1, o.PageLocations[i-1].FirstRowIndex)
		}
	}
	return nil
}

// DecodeColumnIndex decodes a thrift ColumnIndex. The result does not alias
// b. Its lists must have one entry per page (null_counts when present, level
// histograms a multiple of it); errors wrap [ErrCorrupt]. It is safe for
// concurrent use.
func DecodeColumnIndex(b []byte) (*ColumnIndex, error) {
	return decodeIndex[ColumnIndex](bytes.Clone(b), 0)
}

// DecodeOffsetIndex decodes a thrift OffsetIndex. Page locations must have
// non-negative offsets and first rows, positive sizes and first rows in
// non-decreasing order; errors wrap [ErrCorrupt]. It is safe for concurrent
// use.
func DecodeOffsetIndex(b []byte) (*OffsetIndex, error) { return decodeIndex[OffsetIndex](b, 0) }

// pageIndex is the two page index structs, for the functions that read
// and decode either.
type pageIndex interface{ ColumnIndex | OffsetIndex }

// decodeIndex decodes the ColumnIndex or OffsetIndex b, with b and the
// lists taking at most limit bytes (0: no bound): a ColumnIndex's min and
// max values alias b (one copy of the bytes, not one allocation per value);
// an OffsetIndex's page locations take 24 bytes each, allocated once.
func decodeIndex[T pageIndex](b []byte, limit int64) (*T, error) {
	d := decoder{exact: true, limit: limit, used: int64(len(b))}
	d.r.Reset(b)
	x := new(T)
	var err error
	switch x := any(x).(type) {
	case *ColumnIndex:
		err = d.columnIndex(x)
	case *OffsetIndex:
		err = d.offsetIndex(x)
	}
	if err != nil {
		_, _, what, _ := indexOf[T](nil)
		if errors.Is(err, ErrIndexTooLarge) {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		return nil, fmt.Errorf("%w: %s: %w", ErrCorrupt, what, err)
	}
	return x, nil
}

// indexOf returns where chunk c (when not nil) keeps its index of type T,
// the name of the index for errors and its module type for decryption.
func indexOf[T pageIndex](c *ColumnChunk) (offset *int64, length *int32, what string, module encryption.ModuleType) {
	var x *T
	if _, ok := any(x).(*ColumnIndex); ok {
		if c != nil {
			offset, length = c.ColumnIndexOffset, c.ColumnIndexLength
		}
		return offset, length, "column index", encryption.ColumnIndex
	}
	if c != nil {
		offset, length = c.OffsetIndexOffset, c.OffsetIndexLength
	}
	return offset, length, "offset index", encryption.OffsetIndex
}

// MaxPageIndexSize bounds the size of a column or offset index that
// [ReadColumnIndex] and [ReadOffsetIndex] read: 64 MiB. Decoded, an index
// takes at most 24 bytes per byte of it (a slice header or a page location
// per element, each element at least one byte), and about 2.4 times its
// size for real offset indexes: see [ReadOffsetIndexLimit] for a tighter
// bound.
const MaxPageIndexSize = 64 << 20

// readIndex reads length bytes at offset, checking them against the file
// and against limit (0: no bound) before allocating.
func readIndex(r io.ReaderAt, fileSize int64, offset *int64, length *int32, what string, limit int64) ([]byte, error) {
	if offset == nil || length == nil {
		return nil, nil
	}
	off, n := *offset, int64(*length)
	if off < 0 || n <= 0 || n > MaxPageIndexSize || off > fileSize || n > fileSize-off {
		return nil, fmt.Errorf("%w: %s of %d bytes at offset %d in a file of %d bytes", ErrCorrupt, what, n, off, fileSize)
	}
	if limit > 0 && n > limit {
		return nil, fmt.Errorf("%w: %s of %d bytes, the limit is %d", ErrIndexTooLarge, what, n, limit)
	}
	b := make([]byte, n)
	if err := ReadAt(r, b, off); err != nil {
		return nil, fmt.Errorf("format: reading %s: %w", what, err)
	}
	return b, nil
}

// ReadColumnIndex reads and decodes the column index of chunk c from the
// fileSize-byte file r. It returns nil, nil when the chunk has none
// (column_index_offset or column_index_length unset). The index's offset and
// length are checked against fileSize and [MaxPageIndexSize] before reading.
func ReadColumnIndex(r io.ReaderAt, fileSize int64, c *ColumnChunk) (*ColumnIndex, error) {
	return ReadColumnIndexLimit(r, fileSize, c, 0)
}

// ReadColumnIndexLimit is [ReadColumnIndex] holding at most limit bytes (0:
// no bound): the index's bytes, which its min and max values alias, and its
// decoded lists, each checked before it is allocated. Above the limit it
// returns an error wrapping [ErrIndexTooLarge] with the numbers.
func ReadColumnIndexLimit(r io.ReaderAt, fileSize int64, c *ColumnChunk, limit int64) (*ColumnIndex, error) {
	return readPageIndex[ColumnIndex](r, fileSize, c, limit, nil)
}

// ReadOffsetIndex reads and decodes the offset index of chunk c from the
// fileSize-byte file r, like [ReadColumnIndex]. It returns nil, nil when the
// chunk has none.
func ReadOffsetIndex(r io.ReaderAt, fileSize int64, c *ColumnChunk) (*OffsetIndex, error) {
	return ReadOffsetIndexLimit(r, fileSize, c, 0)
}

// ReadOffsetIndexLimit is [ReadOffsetIndex] holding at most limit bytes (0:
// no bound) while it decodes: the index's bytes and its page locations, 24
// bytes each, checked before they are allocated. Above the limit it returns
// an error wrapping [ErrIndexTooLarge] with the numbers.
func ReadOffsetIndexLimit(r io.ReaderAt, fileSize int64, c *ColumnChunk, limit int64) (*OffsetIndex, error) {
	return readPageIndex[OffsetIndex](r, fileSize, c, limit, nil)
}

// indexCrypt is how the page indexes of an encrypted chunk are decrypted:
// with ci, as the modules of row group rowGroup and column column.
type indexCrypt struct {
	dec              *encryption.FileDecryptor
	ci               *encryption.Cipher
	rowGroup, column int
}

// readPageIndex reads the index of type T of chunk c, holding at most limit
// bytes (0: no bound), and decrypts it with crypt; a chunk that is
// encrypted needs crypt. It returns nil, nil when c has no such index.
func readPageIndex[T pageIndex](r io.ReaderAt, fileSize int64, c *ColumnChunk, limit int64, crypt *indexCrypt) (*T, error) {
	offset, length, what, module := indexOf[T](c)
	if crypt == nil && c.Encrypted() {
		return nil, fmt.Errorf("%w: %s of an encrypted column chunk", ErrEncrypted, what)
	}
	b, err := readIndex(r, fileSize, offset, length, what, limit)
	if b == nil || err != nil {
		return nil, err
	}
	if crypt != nil {
		b, err = crypt.dec.DecryptModule(crypt.ci, b[:0:0], b, module, crypt.rowGroup, crypt.column)
		if b == nil || err != nil {
			return nil, err
		}
	}
	return decodeIndex[T](b, limit)
}

// DecodeBloomFilterHeaderSize decodes the thrift BloomFilterHeader at the
// start of b and returns its encoded length and its numBytes field, the size
// of the bitset that follows it. The algorithm, hash and compression members
// are not interpreted. Malformed input or a negative numBytes returns an
// error wrapping [ErrCorrupt].
func DecodeBloomFilterHeaderSize(b []byte) (headerLen int, numBytes int32, err error) {
	h, n, err := DecodeBloomFilterHeader(b)
	return n, h.NumBytes, err
}
