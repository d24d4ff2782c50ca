package rows

import (
	"encoding/json"
	"io"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// readGeneric reads every row of g in batches of 7.
func readGeneric[T any](t *testing.T, g *GenericReader[T]) []T {
	t.Helper()
	var out []T
	buf := make([]T, 7)
	for {
		n, err := g.Read(buf)
		out = append(out, buf[:n]...)
		if err == io.EOF {
			return out
		}
		require.NoError(t, err)
	}
}

// asJSON renders v as encoding/json does, to compare a struct read with
// the rows a Reader gives.
func asJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// TestGenericReaderFlatAndLists reads DuckDB's row_groups.parquet (INT64,
// STRING, nullable INT64, a list of nullable INT64, 5 row groups) into a
// struct and compares each row with the Reader's.
func TestGenericReaderFlatAndLists(t *testing.T) {
	f, err := column.OpenFile(filepath.Join("..", "testdata", "foreign", "duckdb", "row_groups.parquet"))
	require.NoError(t, err)
	defer f.Close()
	type row struct {
		V  int64    `parquet:"v" json:"v"`
		S  string   `parquet:"s" json:"s"`
		N  *int64   `parquet:"n,optional" json:"n"`
		Li []*int64 `parquet:"li" json:"li"`
	}
	g, err := NewGenericReader[row](f)
	require.NoError(t, err)
	got := readGeneric(t, g)
	require.Len(t, got, 9000)
	r, err := NewReader(f)
	require.NoError(t, err)
	for i := range got {
		want, err := r.AppendRow(nil)
		require.NoError(t, err)
		require.JSONEq(t, string(want), asJSON(t, got[i]), "row %d", i)
	}

	// Projection by the struct, other Go types, names in another case.
	type slim struct {
		S  []byte
		V  uint16
		Ix int `parquet:"-"`
	}
	g2, err := NewGenericReader[slim](f, WithRange(8990, -1))
	require.NoError(t, err)
	got2 := readGeneric(t, g2)
	require.Len(t, got2, 10)
	require.Equal(t, uint16(8990), got2[0].V)
	r2, err := NewReader(f, WithRange(8990, 1))
	require.NoError(t, err)
	want, err := r2.ReadRow(nil)
	require.NoError(t, err)
	ws, _ := want.Get("s")
	require.Equal(t, ws, string(got2[0].S))
	// SeekRow keeps to WithRange: row 3 is before it, 8995 in it.
	for _, c := range [][2]int{{3, 8990}, {8995, 8995}} {
		require.NoError(t, g2.SeekRow(int64(c[0])))
		n, err := g2.Read(got2[:1])
		require.NoError(t, err)
		require.Equal(t, 1, n)
		require.Equal(t, uint16(c[1]), got2[0].V)
	}

	// A value that does not fit its field: an error at that row.
	type small struct {
		V int8 `parquet:"v"`
	}
	g3, err := NewGenericReader[small](f)
	require.NoError(t, err)
	buf := make([]small, 200)
	n, err := g3.Read(buf)
	require.ErrorIs(t, err, ErrType)
	require.Equal(t, 128, n)
	require.Contains(t, err.Error(), "field V")
}

// TestGenericReaderMapsAndGroups reads maps of maps (nested_maps) and
// groups (nested_structs.rust) into maps and structs.
func TestGenericReaderMapsAndGroups(t *testing.T) {
	f, err := column.OpenFile(testcorpus.Data(t, "nested_maps.snappy.parquet"))
	require.NoError(t, err)
	defer f.Close()
	type row struct {
		A map[string]map[int32]bool `parquet:"a"`
		B int32                     `parquet:"b"`
		C float64                   `parquet:"c"`
	}
	g, err := NewGenericReader[row](f)
	require.NoError(t, err)
	got := readGeneric(t, g)
	require.Len(t, got, 6)
	require.Equal(t, row{A: map[string]map[int32]bool{"a": {1: true, 2: false}}, B: 1, C: 1}, got[0])

	f2, err := column.OpenFile(testcorpus.Data(t, "nested_structs.rust.parquet"))
	require.NoError(t, err)
	defer f2.Close()
	type stats struct {
		Min, Max, Mean int64
		Count          uint64
	}
	type row2 struct {
		RollNum stats          `parquet:"roll_num"`
		PCCur   map[string]any `parquet:"PC_CUR"`
	}
	g2, err := NewGenericReader[row2](f2)
	require.NoError(t, err)
	got2 := readGeneric(t, g2)
	r, err := NewReader(f2, WithColumns("roll_num", "PC_CUR"))
	require.NoError(t, err)
	require.NotEmpty(t, got2)
	for i := range got2 {
		row, err := r.ReadRow(nil)
		require.NoError(t, err)
		rn, _ := row.Get("roll_num")
		min, _ := rn.(Group).Get("min")
		count, _ := rn.(Group).Get("count")
		require.EqualValues(t, min, got2[i].RollNum.Min)
		require.EqualValues(t, count, got2[i].RollNum.Count)
		pc, _ := row.Get("PC_CUR")
		mx, _ := pc.(Group).Get("max")
		require.Equal(t, mx, got2[i].PCCur["max"])
	}
}

// TestGenericReaderMismatch names the field and the schema's field when
// a struct does not match.
func TestGenericReaderMismatch(t *testing.T) {
	f, err := column.OpenFile(filepath.Join("..", "testdata", "foreign", "duckdb", "row_groups.parquet"))
	require.NoError(t, err)
	defer f.Close()
	type noSuch struct {
		Missing int64 `parquet:"missing"`
	}
	_, err = NewGenericReader[noSuch](f)
	require.ErrorIs(t, err, ErrType)
	require.Contains(t, err.Error(), `"missing"`)
	type listAsInt struct {
		Li int64 `parquet:"li"`
	}
	_, err = NewGenericReader[listAsInt](f)
	require.ErrorIs(t, err, ErrType)
	require.Contains(t, err.Error(), "list")
	type intAsSlice struct {
		V []int64 `parquet:"v"`
	}
	_, err = NewGenericReader[intAsSlice](f)
	require.ErrorIs(t, err, ErrType)
	_, err = NewGenericReader[int](f)
	require.ErrorIs(t, err, ErrType)
	type strAsInt struct {
		S int64 `parquet:"s"`
	}
	g, err := NewGenericReader[strAsInt](f)
	require.NoError(t, err) // a primitive: checked per value
	_, err = g.Read(make([]strAsInt, 1))
	require.ErrorIs(t, err, ErrType)
}
