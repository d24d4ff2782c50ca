package column

import (
	"errors"
	"fmt"
	"sort"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/enctable"
	"github.com/pqcodec/pqcodec/internal/levelscan"
)

// ErrRange is wrapped by errors for a row outside the row group.
var ErrRange = errors.New("column: row out of range")

// seekState tracks row positions in a chunk, for [Reader.SeekRow].
type seekState struct {
	pending   bool  // the walker's current page is the next ReadPage reads
	trim      int   // rows to drop from the start of the next data page
	next      int64 // row index of the first row starting after the pages read or skipped
	first     int64 // row index of the first row of the page last returned
	dataPages int   // data pages read or skipped in the chunk
	oi        *format.OffsetIndex
	oiRead    bool
	scratch   Page // for counting the rows of a page by its levels
	// prefixRead is set once the pages before the offset index's first
	// data page (the dictionary page) have been read, and prefixPages is
	// how many there are.
	prefixRead  bool
	prefixPages int
	// inexact is set when SeekRow jumped over data pages of a repeated
	// column: the Reader's value count is then a lower bound, and the
	// chunk ends after the offset index's last page.
	inexact bool
}

// afterDataPage updates the row positions after ReadPage returned data page
// p, and trims p when SeekRow asked to. When the chunk's offset index has
// been read, p must be where it says and hold the rows it says.
func (r *Reader) afterDataPage(p *Page) error {
	s := &r.seek
	rows := p.NumRows()
	s.prefixRead = true
	if oi := s.oi; oi != nil {
		k := s.dataPages
		if k >= oi.NumPages() || oi.PageLocations[k].Offset != r.pages.Offset() {
			return fmt.Errorf("%w: data page %d at offset %d is not where the offset index puts it", ErrCorrupt, k, r.pages.Offset())
		}
		end := r.file.meta.RowGroups[r.rowGroup].NumRows
		if k+1 < oi.NumPages() {
			end = oi.PageLocations[k+1].FirstRowIndex
		}
		if first := oi.PageLocations[k].FirstRowIndex; first != s.next || end-first != int64(rows) {
			return fmt.Errorf("%w: offset index says data page %d holds rows [%d, %d), it starts at row %d and holds %d",
				ErrCorrupt, k, first, end, s.next, rows)
		}
	}
	s.first = s.next
	s.next += int64(rows)
	s.dataPages++
	if s.trim > 0 {
		r.SliceRows(p, s.trim, rows)
		s.first += int64(s.trim)
		s.trim = 0
	}
	return nil
}

// RowIndex returns the index, within the row group, of the first row that
// starts in the page the last ReadPage returned (after the trimming of
// [Reader.SeekRow]). Levels before it, if any, continue the row before.
func (r *Reader) RowIndex() int64 { return r.seek.first }

// offsetIndex returns the chunk's offset index, read once; nil when it has
// none.
func (r *Reader) offsetIndex() (*format.OffsetIndex, error) {
	if !r.seek.oiRead {
		oi, err := r.file.offsetIndex(r.rowGroup, r.column)
		if err != nil {
			return nil, err
		}
		r.seek.oi, r.seek.oiRead = oi, true
	}
	return r.seek.oi, nil
}

// SeekRow positions r so that the next ReadPage returns the data page that
// holds row (0-based within the row group), its levels and values trimmed
// to start at that row; the pages after it follow as usual.
//
// When the chunk has an offset index, SeekRow reads the pages before the
// index's first data page (the dictionary page) once, then jumps straight
// to the page that holds row, forward or backward: no other page is read.
// ReadPage checks that the page there holds the rows the index says, and
// fails with an error wrapping [ErrCorrupt] when it does not. After a jump
// over data pages of a repeated column, the chunk ends after the index's
// last page, and the pages' value total is no longer checked against the
// chunk's num_values. [Reader.PageIndex] then counts the pages before the
// first data page and the data pages, not index pages between data pages.
//
// Without an offset index, pages before row are skipped by their headers:
// their bodies are not read, decompressed or decoded, except the dictionary
// page's, and, for a repeated column, v1 data pages', whose rows can only
// be counted from their repetition levels. A row behind the current
// position restarts the chunk.
//
// A row at or past the row group's num_rows returns an error wrapping
// [ErrRange]; a row below it that the chunk does not hold (the row group
// claims more rows than its chunk has) one wrapping [ErrCorrupt].
func (r *Reader) SeekRow(row int64) error {
	numRows := r.file.meta.RowGroups[r.rowGroup].NumRows
	if row < 0 || numRows > 0 && row >= numRows {
		return r.errorf(-1, "%w: row %d of a row group of %d rows", ErrRange, row, numRows)
	}
	oi, err := r.offsetIndex()
	if err != nil {
		return err
	}
	if oi != nil {
		return r.seekIndexed(row, oi)
	}
	if row < r.seek.next || r.seek.pending || r.seek.trim > 0 {
		// Behind, or a seek not yet read: restart the chunk, keeping
		// the buffers and the offset index.
		if err := r.file.ResetReader(r, r.rowGroup, r.column); err != nil {
			return err
		}
		r.seek.oi, r.seek.oiRead = oi, true
	}
	// The context is checked before each header is taken, so that a
	// cancelled seek leaves the walker where its counts say.
	for r.ctxErr() == nil && r.pages.NextHeader() {
		h := r.pages.Header()
		page := r.page
		switch h.Type {
		case format.DictionaryPage:
			r.page++
			if err := r.readDictionaryBody(h); err != nil {
				return r.errorf(page, "%w", err)
			}
			continue
		case format.DataPage, format.DataPageV2:
		default:
			r.page++
			continue
		}
		n, rows, err := r.pageRows(h)
		if err != nil {
			return r.errorf(page, "%w", err)
		}
		if row < r.seek.next+int64(rows) {
			if err := r.pages.ReadBody(); err != nil {
				return r.errorf(page, "%w", err)
			}
			r.seek.pending = true
			r.seek.trim = int(row - r.seek.next)
			return nil
		}
		r.page++
		r.valuesSum += int64(n)
		r.seek.next += int64(rows)
		r.seek.dataPages++
	}
	if err := r.ctxErr(); err != nil {
		return r.errorf(r.page, "%w", err)
	}
	if err := r.pages.Err(); err != nil {
		return r.errorf(r.page, "%w", err)
	}
	if numRows > 0 {
		// row is below the row group's num_rows: the row group claims
		// rows its chunk does not hold.
		return r.errorf(r.page, "%w: row group of %d rows, its column chunk holds %d", ErrCorrupt, numRows, r.seek.next)
	}
	return r.errorf(r.page, "%w: row %d past the %d rows of the column chunk", ErrRange, row, r.seek.next)
}

// seekIndexed is SeekRow for a chunk with offset index oi.
func (r *Reader) seekIndexed(row int64, oi *format.OffsetIndex) error {
	locs := oi.PageLocations
	if len(locs) == 0 {
		return r.errorf(-1, "%w: offset index of no pages for a row group of %d rows", ErrCorrupt, r.file.meta.RowGroups[r.rowGroup].NumRows)
	}
	s := &r.seek
	if !s.prefixRead {
		// Read the pages before the first data page: the dictionary.
		for r.pages.NextOffset() != locs[0].Offset {
			if !r.pages.NextHeader() {
				if err := r.pages.Err(); err != nil {
					return r.errorf(r.page, "%w", err)
				}
				return r.errorf(r.page, "%w: no page at offset %d, where the offset index puts the first data page", ErrCorrupt, locs[0].Offset)
			}
			h, page := r.pages.Header(), r.page
			r.page++
			switch h.Type {
			case format.DataPage, format.DataPageV2:
				return r.errorf(page, "%w: data page at offset %d, before the offset index's first at %d", ErrCorrupt, r.pages.Offset(), locs[0].Offset)
			case format.DictionaryPage:
				if err := r.readDictionaryBody(h); err != nil {
					return r.errorf(page, "%w", err)
				}
			}
		}
		s.prefixRead, s.prefixPages = true, r.page
	}
	// The page holding row: the last whose first row is at or before it.
	k := sort.Search(len(locs), func(i int) bool { return locs[i].FirstRowIndex > row }) - 1
	k = max(k, 0) // locs[0].FirstRowIndex is 0: checked by File.PageIndex
	first := locs[k].FirstRowIndex
	// Each row holds at least one value: first is the values before page
	// k for a column that is not repeated, and a lower bound otherwise.
	if err := r.pages.SeekOffset(locs[k].Offset, first); err != nil {
		return r.errorf(s.prefixPages+k, "%w", err)
	}
	r.pages.SetPageOrdinal(k) // encryption: the AADs of an encrypted chunk hold it
	r.page, r.valuesSum = s.prefixPages+k, first
	s.pending, s.trim, s.next, s.dataPages = false, int(row-first), first, k
	s.inexact = s.inexact || k > 0 && r.leaf.MaxRepetitionLevel > 0
	return nil
}

// pageRows returns the value count and the number of rows starting in the
// data page the walker is on, without an offset index: from the header,
// or, for v1 pages of a repeated column, from its levels.
func (r *Reader) pageRows(h *format.PageHeader) (n, rows int, err error) {
	nv := h.DataPageHeader.NumValues
	if h.Type == format.DataPageV2 {
		nv = h.DataPageHeaderV2.NumValues
	}
	if n, err = r.pageValueCount(nv); err != nil {
		return 0, 0, err
	}
	switch {
	case r.leaf.MaxRepetitionLevel == 0:
		return n, n, nil
	case h.Type == format.DataPageV2:
		if h.DataPageHeaderV2.NumRows < 0 || int(h.DataPageHeaderV2.NumRows) > n {
			return 0, 0, fmt.Errorf("%w: v2 page of %d values declares %d rows", ErrCorrupt, n, h.DataPageHeaderV2.NumRows)
		}
		return n, int(h.DataPageHeaderV2.NumRows), nil
	}
	// A v1 page of a repeated column: decode it to count its rows, then
	// undo what decoding counted, since it is read again or skipped.
	if err := r.pages.ReadBody(); err != nil {
		return 0, 0, err
	}
	sum := r.valuesSum
	p := &r.seek.scratch
	p.reset(r.meta.Type, r.typeLength())
	err = r.readDataPageV1(h, r.pages.Body(), p)
	r.valuesSum = sum
	if err != nil {
		return 0, 0, err
	}
	return n, p.NumRows(), nil
}

// SliceRows keeps rows [from, to) of p, a page r returned, in place: the
// levels from the from-th row start (or from the first level when from is
// 0, keeping a continuation of the row before) to the to-th, and the values
// they hold. from and to are clamped to [0, p.NumRows()].
func (r *Reader) SliceRows(p *Page, from, to int) {
	rows := p.NumRows()
	from, to = max(0, min(from, rows)), max(0, min(to, rows))
	if to < from {
		to = from
	}
	start, end := rowStart(p, from), rowStart(p, to)
	if to == rows {
		end = p.NumLevels
	}
	if start == 0 && end == p.NumLevels {
		return
	}
	vstart, vend := start, end
	if m := r.leaf.MaxDefinitionLevel; m > 0 {
		vstart = levelscan.CountEqual(p.DefLevels[:start], int16(m))
		vend = vstart + levelscan.CountEqual(p.DefLevels[start:end], int16(m))
	}
	if len(p.DefLevels) > 0 {
		p.DefLevels = p.DefLevels[:copy(p.DefLevels, p.DefLevels[start:end])]
	}
	if len(p.RepLevels) > 0 {
		p.RepLevels = p.RepLevels[:copy(p.RepLevels, p.RepLevels[start:end])]
	}
	p.NumLevels = end - start
	switch {
	case p.Dictionary != nil:
		p.Indices = p.Indices[:copy(p.Indices, p.Indices[vstart:vend])]
	case p.lookup:
		p.idx = p.idx[:copy(p.idx, p.idx[vstart:vend])]
		p.rawN = len(p.idx)
	case p.rawN > 0:
		// Encoded values (ReadPageDeferred): the first vstart are skipped
		// by AppendValues, those past vend never reached.
		p.skip += vstart
		p.rawN = vend - vstart
		if p.rawN == 0 {
			p.raw, p.skip = nil, 0
		}
	default:
		p.Values.slice(vstart, vend)
	}
}

// rowStart returns the index of the level that starts the i-th row of p
// (i = 0 is the first level).
func rowStart(p *Page, i int) int {
	if len(p.RepLevels) == 0 || i == 0 {
		return i
	}
	n := 0
	for j, l := range p.RepLevels {
		if l == 0 {
			if n == i {
				return j
			}
			n++
		}
	}
	return p.NumLevels
}

// slice keeps values [from, to) of v in place: enctable's AppendRange onto
// v's own memory, emptied, moves them to the front as copy does (a
// BYTE_ARRAY v keeps its first offset, 0, and its offsets are rebased).
func (v *Values) slice(from, to int) {
	t := (*enctable.Values)(v)
	src := *t
	t.Truncate(0)
	if from < to {
		t.AppendRange(&src, from, to)
	}
}

// RowRange is a range [First, End) of rows of a row group.
type RowRange struct {
	First, End int64
}

// readDictionaryBody reads the body of the dictionary page h, whose header
// the walker stands on, checks its CRC and loads it: the dictionary step of
// both seeks (ReadPage gets bodies from walker.Next instead).
func (r *Reader) readDictionaryBody(h *format.PageHeader) error {
	if err := r.pages.ReadBody(); err != nil {
		return err
	}
	if err := r.checkCRC(h); err != nil {
		return err
	}
	return r.readDictionary(h, r.pages.Body())
}
