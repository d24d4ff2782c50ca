// Package splice writes Parquet files made of column chunks of other files,
// copied page by page without decompressing them: it reads a row group's
// chunks as stored, with their page indexes and bloom filters, and writes
// them at a new place, moving every offset that points at them
// (data_page_offset, dictionary_page_offset, index_page_offset, the column
// chunk's and row group's file_offset, the OffsetIndex page locations,
// bloom_filter_offset, column_index_offset, offset_index_offset). Column
// chunk statistics, encodings and size statistics are kept: they describe
// the same pages. Package merge and package reencode build on it.
package splice

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/errs"
)

// ErrCorrupt reports a file whose chunks, page index or bloom filter cannot
// be read. It matches pqcodec.ErrCorrupt.
var ErrCorrupt = errs.Corrupt("splice: corrupt input")

// Group is a row group ready to be written: its column chunks' pages as
// stored and their metadata, with the offsets of the file they were read
// from, and its page indexes and bloom filters.
type Group struct {
	// RowGroup is the row group's metadata; its Columns are copies, with
	// copied MetaData, which Writer updates as it writes them.
	RowGroup format.RowGroup
	Chunks   []Chunk
	// DroppedIndexes counts the chunks whose page index was dropped
	// because it could not be read or names pages that are not the
	// chunk's; DroppedBlooms the bloom filters that could not be read.
	DroppedIndexes, DroppedBlooms int
}

// Chunk is one column chunk of a Group.
type Chunk struct {
	pages    []byte    // the pages as stored, header and body after header and body
	locs     []pageLoc // where each page starts in pages, and at which input offset
	oldStart int64     // input offset of pages[0]
	oldEnd   int64     // input offset after the last page
	ci       []byte    // the column index as stored, or nil
	oi       *format.OffsetIndex
	bloom    []byte // the bloom filter, header and bitset, or nil
}

type pageLoc struct {
	oldOff int64
	typ    format.PageType
}

// maxIndexBytes bounds the page index and bloom filter sizes read.
const maxIndexBytes = 1 << 30

// readRange reads n bytes at off of the size-byte r, checking the range.
func readRange(r io.ReaderAt, size, off, n int64) ([]byte, error) {
	if off < 4 || n < 0 || n > maxIndexBytes || off > size || n > size-off {
		return nil, fmt.Errorf("%w: range [%d, +%d) outside the file of %d bytes", ErrCorrupt, off, n, size)
	}
	b := make([]byte, n)
	if m, err := r.ReadAt(b, off); m != len(b) {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("%w: reading [%d, +%d): %w", ErrCorrupt, off, n, err)
	}
	return b, nil
}

// ReadGroup reads the column chunks cols (all of them when cols is nil) of
// row group g of the size-byte file r (whose footer is meta), in the order
// of cols: each column chunk's pages, walked by a [format.PageWalker] with the
// column reader's rules and kept as stored, its page index and bloom filter.
// A page index whose offset index names a page that was not walked is
// dropped, as is a bloom filter that cannot be read.
func ReadGroup(r io.ReaderAt, size int64, meta *format.FileMetaData, g int, cols []int) (*Group, error) {
	src := &meta.RowGroups[g]
	if cols == nil {
		cols = make([]int, len(src.Columns))
		for i := range cols {
			cols[i] = i
		}
	}
	out := &Group{RowGroup: *src, Chunks: make([]Chunk, len(cols))}
	out.RowGroup.Columns = make([]format.ColumnChunk, len(cols))
	var w format.PageWalker
	var buf []byte
	for i, c := range cols {
		if c < 0 || c >= len(src.Columns) {
			return nil, fmt.Errorf("splice: row group %d has no column %d", g, c)
		}
		cc := &src.Columns[c]
		rng, err := meta.ColumnChunkRange(cc, size)
		if err != nil {
			return nil, fmt.Errorf("column %d: %w", c, fmt.Errorf("%w: %w", ErrCorrupt, err))
		}
		// One read for the chunk; the pages are copied out of it as they
		// are, so the buffer is not kept.
		if buf, err = format.ReadColumnChunk(buf, r, rng); err != nil {
			return nil, fmt.Errorf("column %d: %w", c, fmt.Errorf("%w: %w", ErrCorrupt, err))
		}
		w.Reset(buf, rng)
		ch := &out.Chunks[i]
		ch.oldStart, ch.oldEnd = rng.Start, rng.Start
		for w.Next() {
			ch.locs = append(ch.locs, pageLoc{oldOff: w.Offset(), typ: w.Header().Type})
			ch.oldEnd = w.Offset() + int64(len(w.Page()))
		}
		if err := w.Err(); err != nil {
			return nil, fmt.Errorf("column %d: %w: %w", c, ErrCorrupt, err)
		}
		ch.pages = append([]byte(nil), buf[:ch.oldEnd-ch.oldStart]...)
		mc := *cc.MetaData
		out.RowGroup.Columns[i] = *cc
		out.RowGroup.Columns[i].MetaData = &mc
		if !readPageIndex(r, size, cc, ch) {
			out.DroppedIndexes++
		}
		if mc.BloomFilterOffset != nil {
			if ch.bloom, err = readBloom(r, size, &mc); err != nil {
				out.DroppedBlooms++
			}
		}
	}
	return out, nil
}

// ReadAll reads every row group of the Parquet file data, held in memory
// (as merge and reencode hold the row groups they have just written), with
// [ReadGroup].
func ReadAll(data []byte) ([]*Group, error) {
	r := bytes.NewReader(data)
	meta, err := format.ReadFooter(r, int64(len(data)))
	if err != nil {
		return nil, err
	}
	out := make([]*Group, len(meta.RowGroups))
	for g := range meta.RowGroups {
		if out[g], err = ReadGroup(r, int64(len(data)), meta, g, nil); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readPageIndex reads the column index and offset index of cc into ch,
// and reports false when cc has one that cannot be read or whose offset
// index names a page not in ch.locs (then ch has neither).
func readPageIndex(r io.ReaderAt, size int64, cc *format.ColumnChunk, ch *Chunk) bool {
	ok := true
	if cc.ColumnIndexOffset != nil && cc.ColumnIndexLength != nil {
		var err error
		if ch.ci, err = readRange(r, size, *cc.ColumnIndexOffset, int64(*cc.ColumnIndexLength)); err != nil {
			ch.ci, ok = nil, false
		}
	}
	if cc.OffsetIndexOffset == nil || cc.OffsetIndexLength == nil {
		return ok && cc.OffsetIndexOffset == nil
	}
	b, err := readRange(r, size, *cc.OffsetIndexOffset, int64(*cc.OffsetIndexLength))
	if err != nil {
		ch.ci = nil
		return false
	}
	o, err := format.DecodeOffsetIndex(b)
	if err != nil {
		ch.ci = nil
		return false
	}
	pages := make(map[int64]bool, len(ch.locs))
	for _, l := range ch.locs {
		pages[l.oldOff] = true
	}
	for _, l := range o.PageLocations {
		if !pages[l.Offset] {
			ch.ci = nil
			return false
		}
	}
	ch.oi = o
	return ok
}

// readBloom returns the bytes of the bloom filter of m: bloom_filter_length
// bytes when set, and otherwise its header and the bitset it declares.
func readBloom(r io.ReaderAt, size int64, m *format.ColumnMetaData) ([]byte, error) {
	off := *m.BloomFilterOffset
	if m.BloomFilterLength != nil {
		return readRange(r, size, off, int64(*m.BloomFilterLength))
	}
	head, err := readRange(r, size, off, min(4096, size-off))
	if err != nil {
		return nil, err
	}
	hlen, n, err := format.DecodeBloomFilterHeaderSize(head)
	if err != nil {
		return nil, err
	}
	return readRange(r, size, off, int64(hlen)+int64(n))
}

// Writer writes a file of Groups: the leading magic, the pages of each
// Group as it comes, then at Finish the bloom filters, page indexes and
// footer. It keeps every Group's metadata, page index and bloom filter
// until Finish, not its pages.
type Writer struct {
	pos    int64
	put    func([]byte) error
	groups []*Group
}

// NewWriter returns a Writer of a file whose bytes go to put, in order,
// and writes the leading magic.
func NewWriter(put func([]byte) error) (*Writer, error) {
	t := &Writer{put: put}
	return t, t.emitBytes([]byte("PAR1"))
}

// Pos returns the number of bytes written.
func (t *Writer) Pos() int64 { return t.pos }

func (t *Writer) emitBytes(b []byte) error {
	t.pos += int64(len(b))
	return t.put(b)
}

func (t *Writer) emit(b []byte) (int64, error) {
	off := t.pos
	return off, t.emitBytes(b)
}

// WriteGroup writes the pages of g and moves its metadata's offsets to
// where they went; the page index and bloom filters wait for finish.
func (t *Writer) WriteGroup(g *Group) error {
	var total int64
	for c := range g.Chunks {
		ch := &g.Chunks[c]
		cc := &g.RowGroup.Columns[c]
		newStart := t.pos
		if err := t.emitBytes(ch.pages); err != nil {
			return err
		}
		delta := newStart - ch.oldStart
		moved := make(map[int64]bool, len(ch.locs))
		var firstData, firstDict int64 = -1, -1
		for _, l := range ch.locs {
			moved[l.oldOff] = true
			switch l.typ {
			case format.DataPage, format.DataPageV2:
				if firstData < 0 {
					firstData = l.oldOff + delta
				}
			case format.DictionaryPage:
				if firstDict < 0 {
					firstDict = l.oldOff + delta
				}
			}
		}
		m := cc.MetaData
		if moved[m.DataPageOffset] {
			m.DataPageOffset += delta
		} else if firstData >= 0 {
			m.DataPageOffset = firstData
		} else {
			m.DataPageOffset = newStart
		}
		if p := m.DictionaryPageOffset; p != nil && *p != 0 {
			v := int64(0) // as invalid as in the input; readers ignore 0
			if moved[*p] {
				v = *p + delta
			} else if firstDict >= 0 {
				v = firstDict
			}
			m.DictionaryPageOffset = &v
		}
		if p := m.IndexPageOffset; p != nil {
			if moved[*p] {
				v := *p + delta
				m.IndexPageOffset = &v
			} else {
				m.IndexPageOffset = nil
			}
		}
		switch {
		case cc.FileOffset == ch.oldEnd && ch.oldEnd != ch.oldStart:
			cc.FileOffset = ch.oldEnd + delta
		case cc.FileOffset == 0:
		case moved[cc.FileOffset]:
			cc.FileOffset += delta
		default:
			cc.FileOffset = newStart
		}
		m.TotalCompressedSize = int64(len(ch.pages))
		total += m.TotalCompressedSize
		if ch.oi != nil {
			for i := range ch.oi.PageLocations {
				ch.oi.PageLocations[i].Offset += delta
			}
		}
		ch.pages = nil
	}
	PlaceRowGroup(&g.RowGroup, total)
	t.groups = append(t.groups, g)
	return nil
}

// PlaceRowGroup sets the total_compressed_size of rg, whose chunks have
// moved, to total and its file_offset to the start of its first chunk, each
// only where rg has it.
func PlaceRowGroup(rg *format.RowGroup, total int64) {
	if rg.TotalCompressedSize != nil {
		rg.TotalCompressedSize = &total
	}
	if rg.FileOffset != nil && len(rg.Columns) > 0 {
		start := rg.Columns[0].MetaData.DataPageOffset
		if d := rg.Columns[0].MetaData.DictionaryPageOffset; d != nil && *d > 0 && *d < start {
			start = *d
		}
		rg.FileOffset = &start
	}
}

// PlaceBloomFilter records a bloom filter of n bytes written at off in m:
// bloom_filter_offset, and bloom_filter_length where m has it.
func PlaceBloomFilter(m *format.ColumnMetaData, off int64, n int) {
	m.BloomFilterOffset = &off
	if m.BloomFilterLength != nil {
		l := int32(n)
		m.BloomFilterLength = &l
	}
}

// Finish writes the bloom filters, column indexes and offset indexes of
// every row group, as parquet-java and Arrow lay them out, then meta with
// the row groups written as its row groups.
func (t *Writer) Finish(meta *format.FileMetaData) error {
	for _, g := range t.groups {
		for c := range g.Chunks {
			m := g.RowGroup.Columns[c].MetaData
			b := g.Chunks[c].bloom
			if b == nil {
				m.BloomFilterOffset, m.BloomFilterLength = nil, nil
				continue
			}
			off, err := t.emit(b)
			if err != nil {
				return err
			}
			PlaceBloomFilter(m, off, len(b))
		}
	}
	for _, g := range t.groups {
		for c := range g.Chunks {
			cc := &g.RowGroup.Columns[c]
			cc.ColumnIndexOffset, cc.ColumnIndexLength = nil, nil
			if b := g.Chunks[c].ci; b != nil {
				off, err := t.emit(b)
				if err != nil {
					return err
				}
				n := int32(len(b))
				cc.ColumnIndexOffset, cc.ColumnIndexLength = &off, &n
			}
		}
	}
	for _, g := range t.groups {
		for c := range g.Chunks {
			cc := &g.RowGroup.Columns[c]
			cc.OffsetIndexOffset, cc.OffsetIndexLength = nil, nil
			if o := g.Chunks[c].oi; o != nil {
				b := format.AppendOffsetIndex(nil, o)
				off, err := t.emit(b)
				if err != nil {
					return err
				}
				n := int32(len(b))
				cc.OffsetIndexOffset, cc.OffsetIndexLength = &off, &n
			}
		}
	}
	meta.RowGroups = make([]format.RowGroup, len(t.groups))
	meta.NumRows = 0
	for i, g := range t.groups {
		meta.RowGroups[i] = g.RowGroup
		if g.RowGroup.Ordinal != nil {
			if i <= 32767 {
				o := int16(i)
				meta.RowGroups[i].Ordinal = &o
			} else {
				meta.RowGroups[i].Ordinal = nil
			}
		}
		meta.NumRows += g.RowGroup.NumRows
	}
	footer := format.AppendFileMetaData(nil, meta)
	footer = binary.LittleEndian.AppendUint32(footer, uint32(len(footer)))
	footer = append(footer, "PAR1"...)
	return t.emitBytes(footer)
}
