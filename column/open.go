package column

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/levelscan"
)

// ErrNoColumn is wrapped by errors for a column path that names no leaf
// column of the schema (and, from package rows, which uses this same
// sentinel, for a path that names no node).
var ErrNoColumn = errors.New("column: no such column")

// osFile is the io.ReaderAt of a File opened by [OpenFile], which the File
// owns and [File.Close] closes.
type osFile struct{ *os.File }

// OpenFile opens the Parquet file at path and reads its footer, like
// [Open]. Close the File when done with it and with every Reader it opened.
func OpenFile(path string, opts ...Option) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, err
	}
	f, err := Open(osFile{fh}, st.Size(), opts...)
	if err != nil {
		fh.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// Close closes the file opened by [OpenFile]. For a File from [Open] it
// does nothing: the caller owns the io.ReaderAt it passed. Readers of the
// File must not be used after Close.
func (f *File) Close() error {
	if o, ok := f.r.(osFile); ok {
		return o.Close()
	}
	return nil
}

// LeafIndex returns the index of the leaf column whose path in the schema,
// joined with dots, is path ("a.list.element"), for [File.Column]. A path
// that names no leaf returns an error wrapping [ErrNoColumn], listing the
// leaves.
func (f *File) LeafIndex(path string) (int, error) {
	leaves := f.schema.Leaves()
	parts := strings.Split(path, ".")
	for i, l := range leaves {
		if l.HasPath(parts) {
			return i, nil
		}
	}
	names := make([]string, len(leaves))
	for i, l := range leaves {
		names[i] = strings.Join(l.Path(), ".")
	}
	return -1, fmt.Errorf("%w: %q (the leaf columns are %s)", ErrNoColumn, path, strings.Join(names, ", "))
}

// ColumnByPath opens a Reader on the chunk of the leaf column at the dotted
// path in row group rowGroup; see [File.LeafIndex] and [File.Column].
func (f *File) ColumnByPath(rowGroup int, path string) (*Reader, error) {
	col, err := f.LeafIndex(path)
	if err != nil {
		return nil, err
	}
	return f.Column(rowGroup, col)
}

// PageIndex returns the column index and the offset index of the chunk of
// leaf column column in row group rowGroup. Either is nil when the chunk
// has none. The offset index is checked against the chunk: its pages must
// lie inside the file and start at row 0, and the column index, when both
// exist, must describe as many pages. Each index is read once and cached by
// the File (an error is not cached), so the indexes returned are shared
// with other callers and the File's Readers, and must not be modified.
func (f *File) PageIndex(rowGroup, column int) (*format.ColumnIndex, *format.OffsetIndex, error) {
	oi, err := f.offsetIndex(rowGroup, column)
	if err != nil {
		return nil, nil, err
	}
	e := f.pageIndexEntry(rowGroup, column)
	f.indexMu.Lock()
	ci, done := e.ci, e.ciRead
	f.indexMu.Unlock()
	if !done {
		cc := &f.meta.RowGroups[rowGroup].Columns[column]
		if ci, err = format.ReadColumnIndex(f.r, f.size, cc); err != nil {
			return nil, nil, f.chunkError(rowGroup, column, err)
		}
		if ci != nil && oi != nil && ci.NumPages() != oi.NumPages() {
			return nil, nil, f.chunkError(rowGroup, column, fmt.Errorf("%w: column index of %d pages, offset index of %d", ErrCorrupt, ci.NumPages(), oi.NumPages()))
		}
		f.indexMu.Lock()
		if !e.ciRead {
			e.ci, e.ciRead = ci, true
		}
		ci = e.ci
		f.indexMu.Unlock()
	}
	return ci, oi, nil
}

// pageIndexes is the cache of the page indexes a File has read.
type pageIndexes struct {
	ci             *format.ColumnIndex
	oi             *format.OffsetIndex
	ciRead, oiRead bool
}

// pageIndexEntry returns the cache entry of a chunk, which must be valid,
// creating it if needed; its fields are guarded by f.indexMu.
func (f *File) pageIndexEntry(rowGroup, column int) *pageIndexes {
	key := rowGroup*len(f.schema.Leaves()) + column
	f.indexMu.Lock()
	defer f.indexMu.Unlock()
	e := f.indexes[key]
	if e == nil {
		if f.indexes == nil {
			f.indexes = make(map[int]*pageIndexes)
		}
		e = new(pageIndexes)
		f.indexes[key] = e
	}
	return e
}

// offsetIndex returns the checked offset index of a chunk (see
// [File.PageIndex]), reading it on first use; nil when it has none.
func (f *File) offsetIndex(rowGroup, column int) (*format.OffsetIndex, error) {
	if err := f.checkChunk(rowGroup, column); err != nil {
		return nil, err
	}
	e := f.pageIndexEntry(rowGroup, column)
	f.indexMu.Lock()
	oi, done := e.oi, e.oiRead
	f.indexMu.Unlock()
	if done {
		return oi, nil
	}
	cc := &f.meta.RowGroups[rowGroup].Columns[column]
	oi, err := format.ReadOffsetIndex(f.r, f.size, cc)
	if err != nil {
		return nil, f.chunkError(rowGroup, column, err)
	}
	if oi != nil {
		rows := f.meta.RowGroups[rowGroup].NumRows
		for i, l := range oi.PageLocations {
			if l.Offset > f.size || int64(l.CompressedPageSize) > f.size-l.Offset || l.FirstRowIndex >= max(rows, 1) || i == 0 && l.FirstRowIndex != 0 {
				return nil, f.chunkError(rowGroup, column, fmt.Errorf("%w: offset index page %d (offset %d, %d bytes, first row %d) outside the file or row group",
					ErrCorrupt, i, l.Offset, l.CompressedPageSize, l.FirstRowIndex))
			}
		}
	}
	f.indexMu.Lock()
	defer f.indexMu.Unlock()
	if !e.oiRead { // another goroutine may have read it meanwhile
		e.oi, e.oiRead = oi, true
	}
	return e.oi, nil
}

// chunkError wraps err with the chunk it is about.
func (f *File) chunkError(rowGroup, column int, err error) error {
	return &PageError{Column: f.columnName(column), RowGroup: rowGroup, Page: -1, Err: err}
}

// NumNulls returns the number of levels of p without a value: nulls, and
// for nested columns also empty or null lists and groups above the leaf.
func (p *Page) NumNulls() int { return p.NumLevels - p.NumValues() }

// NumRows returns the number of rows that start in p: its repetition
// levels equal to 0, or all its levels when the column is not repeated.
func (p *Page) NumRows() int {
	if len(p.RepLevels) == 0 {
		return p.NumLevels
	}
	return levelscan.CountEqual(p.RepLevels, 0)
}

// checkChunk checks a row group and leaf column index.
func (f *File) checkChunk(rowGroup, column int) error {
	if rowGroup < 0 || rowGroup >= len(f.meta.RowGroups) {
		return fmt.Errorf("column: row group %d out of range [0, %d)", rowGroup, len(f.meta.RowGroups))
	}
	if column < 0 || column >= len(f.schema.Leaves()) {
		return fmt.Errorf("column: column %d out of range [0, %d)", column, len(f.schema.Leaves()))
	}
	if f.meta.RowGroups[rowGroup].Columns[column].MetaData == nil {
		return &PageError{Column: f.columnName(column), RowGroup: rowGroup, Page: -1, Err: fmt.Errorf("%w: column chunk without metadata", ErrEncrypted)}
	}
	return nil
}
