package format

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// pageIndexFiles returns the corpus data files whose footer names a column
// or offset index, with their footers.
func pageIndexFiles(tb testing.TB) map[string]*FileMetaData {
	out := map[string]*FileMetaData{}
	root := testcorpus.Dir(tb)
	require.NoError(tb, filepath.WalkDir(filepath.Join(root, "data"), func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(p, ".parquet") {
			return err
		}
		b, err := os.ReadFile(p)
		require.NoError(tb, err)
		m, err := ReadFooter(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			return nil
		}
		for _, rg := range m.RowGroups {
			for _, c := range rg.Columns {
				if c.ColumnIndexOffset != nil || c.OffsetIndexOffset != nil {
					out[p] = m
					return nil
				}
			}
		}
		return nil
	}))
	return out
}

// TestPageIndexCorpus reads the page indexes of every corpus file that has
// them and checks them against the pages themselves: one offset-index entry
// per data page, at the offset and with the size the page walker finds, and
// a column index with as many pages, whose null pages are those whose
// header statistics (when present) count only nulls.
func TestPageIndexCorpus(t *testing.T) {
	files := pageIndexFiles(t)
	require.GreaterOrEqual(t, len(files), 20, "corpus files with a page index")
	var chunks, pages int
	for path, m := range files {
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		r, size := bytes.NewReader(b), int64(len(b))
		for g, rg := range m.RowGroups {
			for i := range rg.Columns {
				c := &rg.Columns[i]
				where := filepath.Base(path) + " rg " + itoa(g) + " col " + itoa(i)
				ci, err := ReadColumnIndex(r, size, c)
				require.NoError(t, err, where)
				oi, err := ReadOffsetIndex(r, size, c)
				require.NoError(t, err, where)
				if oi == nil {
					require.Nil(t, ci, where)
					continue
				}
				chunks++
				rng, err := m.ColumnChunkRange(c, size)
				require.NoError(t, err, where)
				w := NewPageWalker(b[rng.Start:rng.Start+rng.Length], rng)
				var locs []PageLocation
				var nullPages []bool
				for w.Next() {
					h := w.Header()
					if h.Type != DataPage && h.Type != DataPageV2 {
						continue
					}
					locs = append(locs, PageLocation{Offset: w.Offset(), CompressedPageSize: int32(w.HeaderSize() + len(w.Body()))})
					nv, nulls, ok := int32(0), int64(0), false
					if h.Type == DataPage {
						nv = h.DataPageHeader.NumValues
						st := &h.DataPageHeader.Statistics
						nulls, ok = st.NullCount, h.DataPageHeader.HasStatistics && st.HasNullCount
					} else {
						nv = h.DataPageHeaderV2.NumValues
						nulls, ok = int64(h.DataPageHeaderV2.NumNulls), true
					}
					nullPages = append(nullPages, ok && nulls == int64(nv))
				}
				require.NoError(t, w.Err(), where)
				require.Len(t, oi.PageLocations, len(locs), where)
				pages += len(locs)
				for p, l := range locs {
					got := oi.PageLocations[p]
					assert.Equal(t, l.Offset, got.Offset, "%s page %d", where, p)
					assert.Equal(t, l.CompressedPageSize, got.CompressedPageSize, "%s page %d", where, p)
				}
				assert.Zero(t, oi.PageLocations[0].FirstRowIndex, where)
				assert.Less(t, oi.PageLocations[len(locs)-1].FirstRowIndex, rg.NumRows, where)
				if ci == nil {
					continue
				}
				require.Equal(t, len(locs), ci.NumPages(), where)
				for p, np := range ci.NullPages {
					if nullPages[p] {
						assert.True(t, np, "%s page %d: all nulls, not a null page", where, p)
					}
					if np {
						assert.Empty(t, ci.MinValues[p], "%s page %d", where, p)
						// parquet-mr 1.13 writes null pages with null
						// count -1 (unknown) for the required columns of
						// datapage_v1-*-checksum.parquet, whose pages
						// hold values: a reader must not trust them.
						if ci.NullCounts != nil {
							assert.NotZero(t, ci.NullCounts[p], "%s page %d", where, p)
						}
					}
				}
			}
		}
	}
	t.Logf("%d files, %d chunks, %d pages", len(files), chunks, pages)
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestColumnIndexValues checks decoded values of alltypes_tiny_pages.parquet,
// whose id column (INT32, values 0..7299 in file order within pages) is
// written by parquet-mr with one min/max pair per page.
func TestColumnIndexValues(t *testing.T) {
	path := testcorpus.Data(t, "alltypes_tiny_pages.parquet")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	m, err := ReadFooter(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	s, err := NewSchema(m.Schema)
	require.NoError(t, err)
	col := -1
	for _, l := range s.Leaves() {
		if l.Name() == "id" {
			col = l.ColumnIndex
		}
	}
	require.GreaterOrEqual(t, col, 0)
	c := &m.RowGroups[0].Columns[col]
	ci, err := ReadColumnIndex(bytes.NewReader(b), int64(len(b)), c)
	require.NoError(t, err)
	oi, err := ReadOffsetIndex(bytes.NewReader(b), int64(len(b)), c)
	require.NoError(t, err)
	require.Equal(t, oi.NumPages(), ci.NumPages())
	require.Greater(t, ci.NumPages(), 100)
	// Every page's min is at most its max, and consecutive pages' row
	// ranges tile the row group.
	le32 := func(v []byte) int32 {
		require.Len(t, v, 4)
		return int32(uint32(v[0]) | uint32(v[1])<<8 | uint32(v[2])<<16 | uint32(v[3])<<24)
	}
	var total int64
	for p := range ci.NumPages() {
		lo, hi := le32(ci.MinValues[p]), le32(ci.MaxValues[p])
		assert.LessOrEqual(t, lo, hi)
		assert.False(t, ci.NullPages[p])
		assert.Zero(t, ci.NullCounts[p])
		end := m.RowGroups[0].NumRows
		if p+1 < oi.NumPages() {
			end = oi.PageLocations[p+1].FirstRowIndex
		}
		total += end - oi.PageLocations[p].FirstRowIndex
	}
	assert.Equal(t, m.RowGroups[0].NumRows, total)
}

func TestPageIndexErrors(t *testing.T) {
	off, n := int64(4), int32(10)
	big := int32(MaxPageIndexSize + 1)
	neg := int64(-1)
	for name, c := range map[string]ColumnChunk{
		"past end":  {ColumnIndexOffset: &off, ColumnIndexLength: &big, OffsetIndexOffset: &off, OffsetIndexLength: &big},
		"negative":  {ColumnIndexOffset: &neg, ColumnIndexLength: &n, OffsetIndexOffset: &neg, OffsetIndexLength: &n},
		"garbage":   {ColumnIndexOffset: &off, ColumnIndexLength: &n, OffsetIndexOffset: &off, OffsetIndexLength: &n},
		"encrypted": {ColumnIndexOffset: &off, ColumnIndexLength: &n, OffsetIndexOffset: &off, OffsetIndexLength: &n, EncryptedColumnMetadata: []byte{1}},
	} {
		file := bytes.Repeat([]byte{0xff}, 100)
		_, err := ReadColumnIndex(bytes.NewReader(file), int64(len(file)), &c)
		assert.Error(t, err, name)
		_, err = ReadOffsetIndex(bytes.NewReader(file), int64(len(file)), &c)
		assert.Error(t, err, name)
		if name != "encrypted" {
			assert.ErrorIs(t, err, ErrCorrupt, name)
		} else {
			assert.ErrorIs(t, err, ErrEncrypted, name)
		}
	}
	ci, err := ReadColumnIndex(bytes.NewReader(nil), 0, &ColumnChunk{})
	assert.NoError(t, err)
	assert.Nil(t, ci)
	// Lists of different lengths: null_pages [true], min_values [], ...
	bad := []byte{0x19, 0x11, 0x01, 0x19, 0x08, 0x19, 0x08, 0x15, 0x00, 0x00}
	_, err = DecodeColumnIndex(bad)
	assert.ErrorIs(t, err, ErrCorrupt)
	// A first row index that goes backwards.
	oiBad := []byte{0x19, 0x2c,
		0x16, 0x08, 0x15, 0x02, 0x16, 0x04, 0x00,
		0x16, 0x10, 0x15, 0x02, 0x16, 0x02, 0x00,
		0x00}
	_, err = DecodeOffsetIndex(oiBad)
	assert.ErrorIs(t, err, ErrCorrupt)
	oiBad[14] = 0x06 // row 3 after row 2: fine
	o, err := DecodeOffsetIndex(oiBad)
	require.NoError(t, err)
	assert.Equal(t, []PageLocation{{4, 1, 2}, {8, 1, 3}}, o.PageLocations)
}

// FuzzDecodePageIndex decodes arbitrary bytes as both index structs: no
// panic, and what decodes satisfies the documented invariants.
func FuzzDecodePageIndex(f *testing.F) {
	for path, m := range pageIndexFiles(f) {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		c := &m.RowGroups[0].Columns[0]
		if c.ColumnIndexOffset != nil && c.ColumnIndexLength != nil && *c.ColumnIndexLength < 4096 {
			f.Add(b[*c.ColumnIndexOffset : *c.ColumnIndexOffset+int64(*c.ColumnIndexLength)])
		}
		if c.OffsetIndexOffset != nil && c.OffsetIndexLength != nil && *c.OffsetIndexLength < 4096 {
			f.Add(b[*c.OffsetIndexOffset : *c.OffsetIndexOffset+int64(*c.OffsetIndexLength)])
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if ci, err := DecodeColumnIndex(b); err == nil {
			n := ci.NumPages()
			if len(ci.MinValues) != n || len(ci.MaxValues) != n || ci.NullCounts != nil && len(ci.NullCounts) != n {
				t.Fatalf("inconsistent column index %+v", ci)
			}
		}
		if oi, err := DecodeOffsetIndex(b); err == nil {
			for i, p := range oi.PageLocations {
				if p.CompressedPageSize <= 0 || i > 0 && p.FirstRowIndex < oi.PageLocations[i-1].FirstRowIndex {
					t.Fatalf("invalid page location %d: %+v", i, p)
				}
			}
		}
	})
}
