package rows

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// writeGeneric writes rows with a GenericWriter[T] under schema and opens
// the result.
func writeGeneric[T any](t *testing.T, schema *format.Schema, rows []T) *column.File {
	t.Helper()
	var buf bytes.Buffer
	g, err := NewGenericWriter[T](&buf, schema, WithBatchRows(5))
	require.NoError(t, err)
	n, err := g.Write(rows)
	require.NoError(t, err)
	require.Equal(t, len(rows), n)
	require.NoError(t, g.Close())
	f, err := column.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	require.NoError(t, err)
	return f
}

// TestGenericWriterRoundTrip reads real files into structs with
// GenericReader, writes the structs with GenericWriter under each file's
// schema and reads them back: the structs are equal, and so are the rows
// (JSON) of the two files for the struct's columns.
func TestGenericWriterRoundTrip(t *testing.T) {
	t.Run("duckdb row_groups", func(t *testing.T) {
		f, err := column.OpenFile(filepath.Join("..", "testdata", "foreign", "duckdb", "row_groups.parquet"))
		require.NoError(t, err)
		defer f.Close()
		type row struct {
			V  int64    `parquet:"v"`
			S  string   `parquet:"s"`
			N  *int64   `parquet:"n,optional"`
			Li []*int64 `parquet:"li"`
		}
		checkGenericRoundTrip[row](t, f)
	})
	t.Run("nested_maps", func(t *testing.T) {
		f, err := column.OpenFile(testcorpus.Data(t, "nested_maps.snappy.parquet"))
		require.NoError(t, err)
		defer f.Close()
		type row struct {
			A map[string]map[int32]bool `parquet:"a"`
			B int32                     `parquet:"b"`
			C float64                   `parquet:"c"`
		}
		checkGenericRoundTrip[row](t, f)
	})
	t.Run("nested_structs", func(t *testing.T) {
		f, err := column.OpenFile(testcorpus.Data(t, "nested_structs.rust.parquet"))
		require.NoError(t, err)
		defer f.Close()
		type stats struct { // names in another case than the schema's
			Min, Max, Mean, Sum, Variance int64
			Count                         uint64
		}
		type row struct {
			RollNum stats `parquet:"roll_num"`
			PCCur   stats `parquet:"PC_CUR"`
		}
		// The file's other groups are required: write under a schema of
		// the struct's two, as parquet-java prints them.
		group := `{ required int64 min (INTEGER(64,true)); required int64 max (INTEGER(64,true));
    required int64 mean (INTEGER(64,true)); required int64 count (INTEGER(64,false));
    required int64 sum (INTEGER(64,true)); required int64 variance (INTEGER(64,true)); }`
		s, err := format.ParseSchema("message schema { required group roll_num " + group +
			" required group PC_CUR " + group + " }")
		require.NoError(t, err)
		checkGenericRoundTrip[row](t, f, s)
	})
}

// checkGenericRoundTrip reads f into []T, writes it under schema (f's when
// none is given) and reads it back.
func checkGenericRoundTrip[T any](t *testing.T, f *column.File, schema ...*format.Schema) {
	t.Helper()
	g, err := NewGenericReader[T](f)
	require.NoError(t, err)
	want := readGeneric(t, g)
	require.NotEmpty(t, want)
	s := f.Schema()
	if len(schema) > 0 {
		s = schema[0]
	}
	f2 := writeGeneric(t, s, want)
	g2, err := NewGenericReader[T](f2)
	require.NoError(t, err)
	require.Equal(t, want, readGeneric(t, g2))
}

// TestGenericWriterTypes writes logical Go types and pointers under a
// schema parsed from parquet-java's text, and an error for a struct field
// the schema lacks and for a null in a required field.
func TestGenericWriterTypes(t *testing.T) {
	s, err := format.ParseSchema(`message m {
  required int64 id;
  optional binary name (STRING);
  required int64 at (TIMESTAMP(MICROS,true));
  optional group tags (LIST) { repeated group list { required binary element (STRING); } }
  optional group attrs (MAP) { repeated group key_value { required binary key (STRING); optional int32 value; } }
}`)
	require.NoError(t, err)
	type row struct {
		ID    int64
		Name  *string
		At    time.Time
		Tags  []string
		Attrs map[string]*int32
	}
	name, seven := "x", int32(7)
	at := time.Date(2026, 12, 2, 10, 0, 0, 123456000, time.UTC)
	in := []row{
		{ID: 1, Name: &name, At: at, Tags: []string{"a", "b"}, Attrs: map[string]*int32{"z": &seven, "k": nil}},
		{ID: 2, At: at.Add(time.Second), Tags: []string{}},
	}
	f := writeGeneric(t, s, in)
	r, err := NewReader(f)
	require.NoError(t, err)
	var lines []string
	for {
		b, err := r.AppendRow(nil)
		if err != nil {
			break
		}
		lines = append(lines, string(b))
	}
	require.Equal(t, []string{
		`{"id":1,"name":"x","at":"2026-12-02T10:00:00.123456Z","tags":["a","b"],"attrs":[{"key":"k","value":null},{"key":"z","value":7}]}`,
		`{"id":2,"name":null,"at":"2026-12-02T10:00:01.123456Z","tags":[],"attrs":null}`,
	}, lines)

	var buf bytes.Buffer
	type extra struct {
		ID    int64
		At    time.Time
		Other int32
	}
	g, err := NewGenericWriter[extra](&buf, s)
	require.NoError(t, err)
	_, err = g.Write([]extra{{ID: 1, At: at}})
	require.ErrorIs(t, err, ErrRow)
	require.Contains(t, err.Error(), "Other")

	type noTime struct{ ID int64 } // at is required
	g2, err := NewGenericWriter[noTime](&buf, s)
	require.NoError(t, err)
	_, err = g2.Write([]noTime{{ID: 1}})
	require.ErrorIs(t, err, ErrRow)
	require.Contains(t, err.Error(), "at")
}
