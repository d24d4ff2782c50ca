package column

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/format"
)

// Files of the committed foreign-writer corpus (testdata/foreign, see its
// MANIFEST.tsv files): DuckDB's lists, structs and maps with nulls at every
// level (no page index), and arrow-go's file with a page index.
const (
	nestedFile    = "../testdata/foreign/duckdb/nested.parquet"
	pageIndexFile = "../testdata/foreign/arrow-go/page_index_bloom.parquet"
)

func TestOpenFile(t *testing.T) {
	f, err := OpenFile(nestedFile)
	require.NoError(t, err)
	i, err := f.LeafIndex("id")
	require.NoError(t, err)
	assert.Equal(t, 0, i)
	i, err = f.LeafIndex("lls.list.element.list.element")
	require.NoError(t, err)
	assert.Equal(t, 2, i)
	for _, bad := range []string{"lls", "", "lls.list", "id.c", "ID", "st.c"} {
		_, err = f.LeafIndex(bad)
		assert.ErrorIs(t, err, ErrNoColumn, bad)
	}
	_, err = f.ColumnByPath(0, "nope")
	assert.ErrorIs(t, err, ErrNoColumn)
	r, err := f.ColumnByPath(0, "st.c.d")
	require.NoError(t, err)
	var p Page
	require.NoError(t, r.ReadPage(&p))
	assert.Equal(t, 1200, p.NumRows())
	assert.Equal(t, 150, p.NumNulls()) // the rows where st is null (nested.jsonl)
	require.NoError(t, f.Close())
	// The file is closed: reading another chunk fails, at the latest on its
	// first page (pages are read from the file as they are needed).
	r, err = f.Column(0, 0)
	if err == nil {
		err = r.ReadPage(&p)
	}
	assert.Error(t, err)

	_, err = OpenFile("../testdata/foreign/missing.parquet")
	assert.ErrorIs(t, err, os.ErrNotExist)
	_, err = OpenFile("../testdata/foreign/duckdb/MANIFEST.tsv")
	assert.ErrorIs(t, err, format.ErrNotParquet)

	// A File from Open does not close the caller's reader.
	fh, err := os.Open(nestedFile)
	require.NoError(t, err)
	defer fh.Close()
	st, err := fh.Stat()
	require.NoError(t, err)
	f, err = Open(fh, st.Size())
	require.NoError(t, err)
	require.NoError(t, f.Close())
	r, err = f.Column(0, 0)
	require.NoError(t, err)
	assert.NoError(t, r.ReadPage(&p))
}

// TestPageIndexRows checks, on every corpus file with an offset index,
// that each data page starts at the row its offset index says, counting
// rows with Page.NumRows, and that null counts of the column index match
// Page.NumNulls for non-repeated columns.
func TestPageIndexRows(t *testing.T) {
	var files, pages int
	for _, path := range corpusFiles(t, "data") {
		f, err := OpenFile(path)
		if err != nil {
			continue
		}
		counted := false
		for rg := range f.NumRowGroups() {
			for col := range f.NumColumns() {
				where := filepath.Base(path) + " " + f.columnName(col)
				ci, oi, err := f.PageIndex(rg, col)
				if errors.Is(err, ErrEncrypted) {
					continue
				}
				require.NoError(t, err, where)
				if oi == nil {
					continue
				}
				r, err := f.Column(rg, col)
				require.NoError(t, err, where)
				var p Page
				row, n := int64(0), 0
				for {
					err := r.ReadPage(&p)
					if errors.Is(err, io.EOF) {
						break
					}
					if err != nil {
						n = -1
						break
					}
					require.Less(t, n, oi.NumPages(), where)
					assert.Equal(t, oi.PageLocations[n].FirstRowIndex, row, "%s page %d", where, n)
					if ci != nil && ci.NullCounts != nil && ci.NullCounts[n] >= 0 && r.Leaf().MaxRepetitionLevel == 0 {
						assert.Equal(t, ci.NullCounts[n], int64(p.NumNulls()), "%s page %d", where, n)
					}
					row += int64(p.NumRows())
					n++
				}
				if n < 0 {
					continue // unreadable chunks are covered elsewhere
				}
				assert.Equal(t, oi.NumPages(), n, where)
				assert.Equal(t, f.MetaData().RowGroups[rg].NumRows, row, where)
				pages += n
				counted = true
			}
		}
		if counted {
			files++
		}
		f.Close()
	}
	t.Logf("%d files, %d pages", files, pages)
	assert.GreaterOrEqual(t, files, 20)
}

func TestPageIndexErrors(t *testing.T) {
	f, err := OpenFile(pageIndexFile)
	require.NoError(t, err)
	defer f.r.(osFile).Close() // f.r is replaced below
	col, err := f.LeafIndex("lowcard")
	require.NoError(t, err)
	_, _, err = f.PageIndex(1, col)
	assert.Error(t, err)
	_, _, err = f.PageIndex(0, f.NumColumns())
	assert.Error(t, err)
	// A column index that runs past the end of the file.
	cc := &f.meta.RowGroups[0].Columns[col]
	saved := *cc.ColumnIndexOffset
	*cc.ColumnIndexOffset = f.size - 2
	_, _, err = f.PageIndex(0, col)
	assert.ErrorIs(t, err, format.ErrCorrupt)
	var pe *PageError
	assert.True(t, errors.As(err, &pe))
	assert.True(t, strings.Contains(err.Error(), "lowcard"), err.Error())
	*cc.ColumnIndexOffset = saved
	// An offset index whose page lies past the end of the file.
	orig, err := os.ReadFile(pageIndexFile)
	require.NoError(t, err)
	oi := []byte{0x19, 0x1c, 0x16}
	oi = binary.AppendUvarint(oi, 1<<41) // zigzag(1<<40)
	oi = append(oi, 0x15, 0x14, 0x16, 0x00, 0x00, 0x00)
	off, n := int64(len(orig)), int32(len(oi))
	f.r, f.size = bytes.NewReader(append(orig, oi...)), int64(len(orig)+len(oi))
	cc.OffsetIndexOffset, cc.OffsetIndexLength = &off, &n
	f.indexes = nil // the indexes read above are cached
	_, _, err = f.PageIndex(0, col)
	assert.ErrorIs(t, err, ErrCorrupt)
}
