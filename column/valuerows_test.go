package column

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestValueRows maps the values of DuckDB's row_groups.parquet back to
// rows: the list elements of li (nulls, empty and null lists among them)
// and the nullable n, against the rows DuckDB's reader gives
// (row_groups.jsonl), in every row group, after a seek too.
func TestValueRows(t *testing.T) {
	dir := filepath.Join("..", "testdata", "foreign", "duckdb")
	fh, err := os.Open(filepath.Join(dir, "row_groups.jsonl"))
	require.NoError(t, err)
	defer fh.Close()
	var wantLi, wantN []int64 // file rows of each non-null value
	sc := bufio.NewScanner(fh)
	for row := int64(0); sc.Scan(); row++ {
		var r struct {
			N  *int64   `json:"n"`
			Li []*int64 `json:"li"`
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &r))
		if r.N != nil {
			wantN = append(wantN, row)
		}
		for _, e := range r.Li {
			if e != nil {
				wantLi = append(wantLi, row)
			}
		}
	}
	require.NoError(t, sc.Err())

	f, err := OpenFile(filepath.Join(dir, "row_groups.parquet"))
	require.NoError(t, err)
	defer f.Close()
	for name, want := range map[string][]int64{"li.list.element": wantLi, "n": wantN} {
		col, err := f.LeafIndex(name)
		require.NoError(t, err)
		var got []int64
		var p Page
		for rg := range f.NumRowGroups() {
			r, err := f.Column(rg, col)
			require.NoError(t, err)
			var rows []int64
			for {
				if err := r.ReadPage(&p); err == io.EOF {
					break
				} else {
					require.NoError(t, err)
				}
				n := len(rows)
				rows = r.ValueRows(rows, &p)
				require.Equal(t, p.NumValues(), len(rows)-n)
			}
			for _, x := range rows {
				got = append(got, f.FirstRow(rg)+x)
			}
			// After a seek, the rows of the page's values start at the row.
			at := f.MetaData().RowGroups[rg].NumRows / 2
			require.NoError(t, r.SeekRow(at))
			require.NoError(t, r.ReadPage(&p))
			seek := r.ValueRows(nil, &p)
			var tail []int64
			for _, x := range rows {
				if x >= at {
					tail = append(tail, x)
				}
			}
			require.Equal(t, tail[:len(seek)], seek, "%s row group %d after SeekRow(%d)", name, rg, at)
		}
		require.Equal(t, want, got, name)
	}
}
