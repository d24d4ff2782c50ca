package column

import (
	"errors"
	"fmt"
	"math"

	"github.com/pqcodec/pqcodec/bloom"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/stats"
)

// FirstRow returns the index in the file (rows numbered from 0 across row
// groups, in footer order) of the first row of row group rowGroup: the sum
// of the num_rows of the row groups before it (a negative num_rows counts
// as 0). It panics if rowGroup is not in [0, NumRowGroups()].
func (f *File) FirstRow(rowGroup int) int64 {
	var n int64
	for _, rg := range f.meta.RowGroups[:rowGroup] {
		n += max(rg.NumRows, 0)
	}
	return n
}

// RowGroupOf returns the row group holding file row row (see
// [File.FirstRow]) and the row's index within it, going by the footer's
// num_rows. A row outside the file returns an error wrapping [ErrRange].
func (f *File) RowGroupOf(row int64) (rowGroup int, rowInGroup int64, err error) {
	if row >= 0 {
		for i, rg := range f.meta.RowGroups {
			n := max(rg.NumRows, 0)
			if row < n {
				return i, row, nil
			}
			row -= n
		}
	}
	return 0, 0, fmt.Errorf("%w: row %d of a file of %d rows", ErrRange, row, f.FirstRow(len(f.meta.RowGroups)))
}

// MatchingRange returns the ranges of rows of row group rowGroup whose
// pages of leaf column column may hold a value in [lo, hi] (an invalid
// stats.Value leaves that side open): [File.MatchingRows] with
// [stats.Column.MayContain]. Each bound must fit the column's type, as
// [stats.Column.Bound] converts it; one that does not returns an error
// wrapping [stats.ErrInvalidArgument] (a DOUBLE bound on an INT64 column
// is converted when it is an integer, and an error when it is 2.5).
func (f *File) MatchingRange(rowGroup, column int, lo, hi stats.Value) ([]RowRange, error) {
	c, lo, hi, err := f.bounds(column, lo, hi)
	if err != nil {
		return nil, err
	}
	if err := f.checkChunk(rowGroup, column); err != nil {
		return nil, err
	}
	return f.MatchingRows(rowGroup, column, func(s stats.Stats) bool { return c.MayContain(s, lo, hi) })
}

// bounds checks lo and hi against leaf column column.
func (f *File) bounds(column int, lo, hi stats.Value) (*stats.Column, stats.Value, stats.Value, error) {
	leaves := f.schema.Leaves()
	if column < 0 || column >= len(leaves) {
		return nil, lo, hi, fmt.Errorf("column: column %d out of range [0, %d)", column, len(leaves))
	}
	c := stats.NewColumn(f.meta, leaves[column])
	var err error
	if lo, err = c.Bound(lo); err != nil {
		return nil, lo, hi, fmt.Errorf("column %s: lower bound: %w", f.columnName(column), err)
	}
	if hi, err = c.Bound(hi); err != nil {
		return nil, lo, hi, fmt.Errorf("column %s: upper bound: %w", f.columnName(column), err)
	}
	return c, lo, hi, nil
}

// MatchingFileRows returns the ranges of file rows (see [File.FirstRow])
// whose values of leaf column column may lie in [lo, hi], in order and
// merged where adjacent, for rows.WithRowRanges or [File.RowGroupOf]
// and [Reader.SeekRow]. Row groups are pruned by the chunk's statistics;
// when lo and hi are equal (an equality predicate), by the chunk's bloom
// filter too; then each remaining row group's pages by its column index,
// as [File.MatchingRange]. Bounds are checked as there. A bloom filter
// that cannot be read prunes nothing (other readers ignore them too).
func (f *File) MatchingFileRows(column int, lo, hi stats.Value) ([]RowRange, error) {
	c, lo, hi, err := f.bounds(column, lo, hi)
	if err != nil {
		return nil, err
	}
	eq := lo.Valid() && hi.Valid() && c.Compare(lo, hi) == 0
	var out []RowRange
	first := int64(0)
	for rg := range f.meta.RowGroups {
		base := first
		first += max(f.meta.RowGroups[rg].NumRows, 0)
		if s, err := f.Stats(rg, column); err == nil && !c.MayContain(s, lo, hi) {
			continue
		}
		if eq && !f.bloomMayContain(rg, column, lo) {
			continue
		}
		ranges, err := f.MatchingRows(rg, column, func(s stats.Stats) bool { return c.MayContain(s, lo, hi) })
		if err != nil {
			return nil, err
		}
		for _, r := range ranges {
			r.First += base
			r.End += base
			if n := len(out); n > 0 && out[n-1].End == r.First {
				out[n-1].End = r.End
			} else {
				out = append(out, r)
			}
		}
	}
	return out, nil
}

// bloomMayContain reports whether the chunk's bloom filter may hold v:
// true when it has none, cannot be read, or v's type has more than one
// encoding of equal values (floating-point zeros and NaNs, DECIMAL byte
// arrays of different lengths), which one hash cannot stand for.
func (f *File) bloomMayContain(rowGroup, column int, v stats.Value) bool {
	leaf := f.schema.Leaves()[column]
	var h uint64
	switch v.Type() {
	case format.Int32:
		h = bloom.HashInt32(v.Int32())
	case format.Int64:
		h = bloom.HashInt64(v.Int64())
	case format.Float:
		if x := v.Float32(); x == 0 || x != x {
			return true
		}
		h = bloom.HashFloat32(v.Float32())
	case format.Double:
		if x := v.Float64(); x == 0 || math.IsNaN(x) {
			return true
		}
		h = bloom.HashFloat64(v.Float64())
	case format.ByteArray, format.FixedLenByteArray, format.Int96:
		if e := leaf.Element; e.LogicalType != nil && (e.LogicalType.Kind == format.LogicalDecimal || e.LogicalType.Kind == format.LogicalFloat16) ||
			e.ConvertedType != nil && *e.ConvertedType == format.ConvertedDecimal {
			return true
		}
		h = bloom.HashBytes(v.Bytes())
	default:
		return true
	}
	bf, err := f.BloomFilter(rowGroup, column)
	if err != nil || bf == nil {
		return true
	}
	return bf.Check(h)
}

// maxBloomHeader bounds the bytes read for a bloom filter header when the
// chunk does not give the filter's length (headers take about 15 bytes).
const maxBloomHeader = 256

// BloomFilter reads the bloom filter of the chunk of leaf column column in
// row group rowGroup (ColumnMetaData.bloom_filter_offset, and
// bloom_filter_length when the file has it), or returns nil and no error
// when the chunk has none. It reads what the file holds: a header or
// bitset past the end of the file returns an error wrapping [ErrCorrupt]
// and [bloom.ErrCorrupt]; a filter of another algorithm, hash or
// compression one wrapping [bloom.ErrUnsupported].
func (f *File) BloomFilter(rowGroup, column int) (*bloom.Filter, error) {
	if err := f.checkChunk(rowGroup, column); err != nil {
		return nil, err
	}
	m := f.meta.RowGroups[rowGroup].Columns[column].MetaData
	if m == nil || m.BloomFilterOffset == nil {
		return nil, nil
	}
	if ci := f.chunkCipher(rowGroup, column); ci != nil { // encryption: decrypt.go
		return f.bloomFilterDecrypt(rowGroup, column, ci)
	}
	fail := func(err error) (*bloom.Filter, error) {
		return nil, &PageError{Column: f.columnName(column), RowGroup: rowGroup, Page: -1, Err: fmt.Errorf("bloom filter: %w", err)}
	}
	off := *m.BloomFilterOffset
	if off < 0 || off >= f.size {
		return fail(fmt.Errorf("%w: %w: offset %d outside the file of %d bytes", ErrCorrupt, bloom.ErrCorrupt, off, f.size))
	}
	var n int64
	if m.BloomFilterLength != nil && *m.BloomFilterLength > 0 {
		n = int64(*m.BloomFilterLength)
	} else {
		head := make([]byte, min(maxBloomHeader, f.size-off))
		if err := format.ReadAt(f.r, head, off); err != nil {
			return fail(err)
		}
		h, hlen, err := format.DecodeBloomFilterHeader(head)
		if err != nil {
			return fail(fmt.Errorf("%w: %w", bloom.ErrCorrupt, err))
		}
		n = int64(hlen) + int64(h.NumBytes)
	}
	if n > f.size-off {
		return fail(fmt.Errorf("%w: %w: %d bytes at offset %d, past the end of the file of %d bytes", ErrCorrupt, bloom.ErrCorrupt, n, off, f.size))
	}
	b := make([]byte, n)
	if err := format.ReadAt(f.r, b, off); err != nil {
		return fail(err)
	}
	bf, _, err := bloom.Unmarshal(b)
	if err != nil {
		if errors.Is(err, bloom.ErrCorrupt) {
			err = fmt.Errorf("%w: %w", ErrCorrupt, err)
		}
		return fail(err)
	}
	return bf, nil
}
