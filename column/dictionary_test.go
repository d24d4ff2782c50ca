package column

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// pageStrings returns the values of p as strings, resolving kept indices.
func pageStrings(p *Page) []string {
	out := make([]string, 0, p.NumValues())
	if p.Dictionary != nil {
		for _, x := range p.Indices {
			out = append(out, fmt.Sprint(p.Dictionary.Value(int(x))))
		}
		return out
	}
	for i := range p.Values.Len() {
		out = append(out, fmt.Sprint(p.Values.Value(i)))
	}
	return out
}

// TestKeepDictionaryCorpus reads every corpus chunk twice, resolving and
// keeping dictionaries, and checks that the pages agree value for value.
func TestKeepDictionaryCorpus(t *testing.T) {
	var kept, pages int
	for _, path := range corpusFiles(t, "data") {
		plain, err := OpenFile(path)
		if err != nil {
			continue
		}
		dict, err := OpenFile(path, WithKeepDictionary(true))
		require.NoError(t, err)
		for rg := range plain.NumRowGroups() {
			for col := range plain.NumColumns() {
				if plain.meta.RowGroups[rg].Columns[col].MetaData.TotalUncompressedSize > 4<<20 {
					continue
				}
				where := fmt.Sprintf("%s rg %d col %d", filepath.Base(path), rg, col)
				a, err := plain.Column(rg, col)
				if err != nil {
					continue
				}
				b, err := dict.Column(rg, col)
				require.NoError(t, err, where)
				var pa, pb Page
				for {
					ea, eb := a.ReadPage(&pa), b.ReadPage(&pb)
					if ea != nil || eb != nil {
						if !errors.Is(ea, io.EOF) {
							// Broken chunks fail at the same page
							// either way, unless only resolving
							// finds a bad index.
							assert.Error(t, eb, where)
						}
						break
					}
					pages++
					if pb.Dictionary != nil {
						kept++
						assert.Zero(t, pb.Values.Len(), where)
						assert.Same(t, b.Dictionary(), pb.Dictionary, where)
					}
					require.Equal(t, pa.NumLevels, pb.NumLevels, where)
					assert.Equal(t, pa.DefLevels, pb.DefLevels, where)
					assert.Equal(t, pa.RepLevels, pb.RepLevels, where)
					assert.Equal(t, pa.NumNulls(), pb.NumNulls(), where)
					require.Equal(t, pageStrings(&pa), pageStrings(&pb), where)
				}
			}
		}
		plain.Close()
		dict.Close()
	}
	t.Logf("%d pages, %d with kept dictionaries", pages, kept)
	assert.Greater(t, kept, 1000)
}

func TestKeepDictionarySeekAndAllocs(t *testing.T) {
	f, err := OpenFile(testcorpus.Data(t, "alltypes_tiny_pages.parquet"), WithKeepDictionary(true))
	require.NoError(t, err)
	defer f.Close()
	col, err := f.LeafIndex("string_col")
	require.NoError(t, err)
	plain, err := OpenFile(testcorpus.Data(t, "alltypes_tiny_pages.parquet"))
	require.NoError(t, err)
	defer plain.Close()
	fc, err := readFlat(t, plain, 0, col)
	require.NoError(t, err)

	r, err := f.Column(0, col)
	require.NoError(t, err)
	var p Page
	for _, row := range []int{0, 17, 3000, 3001, 7299, 5} {
		require.NoError(t, r.SeekRow(int64(row)))
		require.NoError(t, r.ReadPage(&p))
		require.NotNil(t, p.Dictionary)
		assert.Equal(t, int64(row), r.RowIndex())
		start := fc.rowLevel[row]
		assert.Equal(t, fc.vals[fc.valBefore[start]:fc.valBefore[start+p.NumLevels]], pageStrings(&p), "row %d", row)
	}

	// Reading the chunk again with the same Reader and Page allocates
	// nothing.
	read := func() {
		if err := f.ResetReader(r, 0, col); err != nil {
			t.Fatal(err)
		}
		for {
			if err := r.ReadPage(&p); err != nil {
				if !errors.Is(err, io.EOF) {
					t.Fatal(err)
				}
				return
			}
		}
	}
	read()
	assert.Zero(t, testing.AllocsPerRun(10, read))
}

func BenchmarkKeepDictionary(b *testing.B) {
	path := testcorpus.Data(b, "alltypes_tiny_pages.parquet")
	for _, keep := range []bool{false, true} {
		b.Run(fmt.Sprintf("keep=%v", keep), func(b *testing.B) {
			f, err := OpenFile(path, WithKeepDictionary(keep))
			require.NoError(b, err)
			defer f.Close()
			col, err := f.LeafIndex("string_col")
			require.NoError(b, err)
			var r Reader
			var p Page
			values := 0
			for b.Loop() {
				if err := f.ResetReader(&r, 0, col); err != nil {
					b.Fatal(err)
				}
				values = 0
				for {
					if err := r.ReadPage(&p); err != nil {
						if !errors.Is(err, io.EOF) {
							b.Fatal(err)
						}
						break
					}
					values += p.NumValues()
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*values), "ns/value")
			b.ReportAllocs()
		})
	}
}

// TestKeepDictionarySliceRows trims a kept-dictionary page of a nested
// column (FuzzSeek found SliceRows slicing the empty Values instead).
func TestKeepDictionarySliceRows(t *testing.T) {
	f, err := OpenFile(nestedFile, WithKeepDictionary(true))
	require.NoError(t, err)
	defer f.Close()
	r, err := f.ColumnByPath(0, "li.list.element") // dictionary-encoded
	require.NoError(t, err)
	var p Page
	require.NoError(t, r.ReadPage(&p))
	require.NotNil(t, p.Dictionary)
	// Rows 2 to 4 (nested.jsonl): [null, 2, null], [0, 1, 2], [0, 1, 2, 3].
	r.SliceRows(&p, 2, 5)
	assert.Equal(t, 10, p.NumLevels)
	assert.Equal(t, []string{"2", "0", "1", "2", "0", "1", "2", "3"}, pageStrings(&p))
	assert.Len(t, p.Indices, 8)
	assert.Zero(t, p.Values.Len())
}
