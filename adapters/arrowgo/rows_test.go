package arrowgo

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/rows"
)

// TestReadAgainstRows checks the tables of the corpus files pqarrow cannot
// read against pqcodec's record assembly (package rows), value by value:
// each Arrow value is mapped back to the physical value rows returns.
func TestReadAgainstRows(t *testing.T) {
	checked := 0
	withAdapter(t, func() {
		for _, path := range corpusFiles(t) {
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			if tbl, err := pqarrowTable(data, pqarrow.ArrowReadProperties{}); err == nil {
				tbl.Release()
				continue
			}
			name := filepath.Base(filepath.Dir(path)) + "/" + filepath.Base(path)
			if _, ok := tooLarge[name]; ok {
				continue
			}
			t.Run(name, func(t *testing.T) {
				r, err := Open(bytes.NewReader(data), int64(len(data)))
				if err != nil {
					t.Skipf("ours fails too: %v", err)
				}
				tbl, err := r.ReadTable(context.Background())
				if err != nil {
					t.Skipf("ours fails too: %v", err)
				}
				defer tbl.Release()
				checked++
				compareRows(t, r, tbl)
			})
		}
	})
	t.Logf("%d files only pqcodec reads checked against rows", checked)
}

// compareRows compares every value of tbl, read by r, with rows' assembly
// of the same file.
func compareRows(t *testing.T, r *FileReader, tbl arrow.Table) {
	rr, err := rows.NewReader(r.File(), rows.WithRaw()) // physical values, as the comparison below converts them
	require.NoError(t, err)
	cols := make([]arrow.Array, tbl.NumCols())
	for j := range cols {
		ch := tbl.Column(j).Data()
		require.LessOrEqual(t, len(ch.Chunks()), 1)
		if len(ch.Chunks()) == 1 {
			cols[j] = ch.Chunk(0)
		}
	}
	var row rows.Group
	for i := 0; ; i++ {
		row, err = rr.ReadRow(row[:0])
		if errors.Is(err, io.EOF) {
			require.EqualValues(t, tbl.NumRows(), i)
			return
		}
		require.NoError(t, err)
		require.Len(t, row, len(cols))
		for j, c := range cols {
			sf := &r.Manifest().Fields[j]
			got := toRows(r.File(), c, i, sf)
			want := row[j].Value
			if !equalRows(want, got) {
				t.Fatalf("row %d field %s: rows %v, arrow %v", i, row[j].Name, want, got)
			}
		}
	}
}

// int96Nanos is an INT96 value of rows as nanoseconds since the epoch,
// wrapping as Arrow's readers do for dates outside int64's range.
func int96Nanos(v any) any {
	switch x := v.(type) {
	case [12]byte:
		nanos := int64(binary.LittleEndian.Uint64(x[:8]))
		days := int64(binary.LittleEndian.Uint32(x[8:]))
		return (days-2_440_588)*86_400_000_000_000 + nanos
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = int96Nanos(e)
		}
		return out
	case rows.Group:
		out := make(rows.Group, len(x))
		for i, f := range x {
			out[i] = rows.Field{Name: f.Name, Value: int96Nanos(f.Value)}
		}
		return out
	}
	return v
}

// toRows is value i of arr, field sf, in rows' value model (physical
// values).
func toRows(f *column.File, arr arrow.Array, i int, sf *pqarrow.SchemaField) any {
	if arr.IsNull(i) {
		return nil
	}
	switch a := arr.(type) {
	case array.ExtensionArray:
		return toRows(f, a.Storage(), i, sf)
	case *array.Dictionary:
		return toRows(f, a.Dictionary(), a.GetValueIndex(i), sf)
	case *array.Struct:
		g := rows.Group{}
		for k := range sf.Children {
			g = append(g, rows.Field{Name: sf.Children[k].Field.Name, Value: toRows(f, a.Field(k), i, &sf.Children[k])})
		}
		return g
	case *array.Map:
		start, end := a.ValueOffsets(i)
		kv := &sf.Children[0]
		out := []rows.KeyValue{}
		for j := int(start); j < int(end); j++ {
			out = append(out, rows.KeyValue{Key: toRows(f, a.Keys(), j, &kv.Children[0]), Value: toRows(f, a.Items(), j, &kv.Children[1])})
		}
		return out
	case array.ListLike:
		start, end := a.ValueOffsets(i)
		out := []any{}
		for j := int(start); j < int(end); j++ {
			out = append(out, toRows(f, a.ListValues(), j, &sf.Children[0]))
		}
		return out
	}
	phys := *f.Schema().Leaves()[sf.ColIndex].Element.Type
	switch a := arr.(type) {
	case *array.Boolean:
		return a.Value(i)
	case *array.Int8:
		return int32(a.Value(i))
	case *array.Uint8:
		return int32(a.Value(i))
	case *array.Int16:
		return int32(a.Value(i))
	case *array.Uint16:
		return int32(a.Value(i))
	case *array.Int32:
		return a.Value(i)
	case *array.Uint32:
		return int32(a.Value(i))
	case *array.Date32:
		return int32(a.Value(i))
	case *array.Time32:
		return int32(a.Value(i))
	case *array.Date64:
		return int32(int64(a.Value(i)) / 86_400_000)
	case *array.Int64:
		return a.Value(i)
	case *array.Uint64:
		return int64(a.Value(i))
	case *array.Time64:
		return int64(a.Value(i))
	case *array.Duration:
		return int64(a.Value(i))
	case *array.Timestamp:
		v := int64(a.Value(i))
		return v
	case *array.Float32:
		return a.Value(i)
	case *array.Float64:
		return a.Value(i)
	case *array.Float16:
		u := a.Value(i).Uint16()
		return []byte{byte(u), byte(u >> 8)}
	case *array.String:
		return a.Value(i)
	case *array.LargeString:
		return a.Value(i)
	case *array.Binary:
		return a.Value(i)
	case *array.LargeBinary:
		return a.Value(i)
	case *array.FixedSizeBinary:
		return a.Value(i)
	case *array.Decimal128:
		v := a.Value(i)
		switch phys {
		case format.Int32:
			return int32(v.LowBits())
		case format.Int64:
			return int64(v.LowBits())
		}
		b := make([]byte, 16)
		for k := 0; k < 8; k++ {
			b[k] = byte(v.LowBits() >> (8 * k))
			b[8+k] = byte(uint64(v.HighBits()) >> (8 * k))
		}
		return decimal(b)
	case *array.Decimal256:
		v := a.Value(i).Array()
		switch phys {
		case format.Int32:
			return int32(v[0])
		case format.Int64:
			return int64(v[0])
		}
		b := make([]byte, 32)
		for w := 0; w < 4; w++ {
			for k := 0; k < 8; k++ {
				b[8*w+k] = byte(v[w] >> (8 * k))
			}
		}
		return decimal(b)
	case *array.Null:
		return nil
	}
	return fmt.Sprintf("unhandled %T", arr)
}

// decimal is a decimal stored as bytes, little-endian at Arrow's width:
// rows returns the big-endian bytes as stored, of any length.
type decimal []byte

// equalRows compares a rows value with a value of toRows.
func equalRows(want, got any) bool {
	switch g := got.(type) {
	case decimal:
		w, ok := want.([]byte)
		if !ok {
			return false
		}
		b := make([]byte, len(g))
		return bigEndianDecimal(b, w) == nil && bytes.Equal(b, g)
	case rows.Group:
		w, ok := want.(rows.Group)
		if !ok || len(w) != len(g) {
			return false
		}
		for i := range g {
			if w[i].Name != g[i].Name || !equalRows(w[i].Value, g[i].Value) {
				return false
			}
		}
		return true
	case []any:
		w, ok := want.([]any)
		if !ok || len(w) != len(g) {
			return false
		}
		for i := range g {
			if !equalRows(w[i], g[i]) {
				return false
			}
		}
		return true
	case []rows.KeyValue:
		w, ok := want.([]rows.KeyValue)
		if !ok || len(w) != len(g) {
			return false
		}
		for i := range g {
			if !equalRows(w[i].Key, g[i].Key) || !equalRows(w[i].Value, g[i].Value) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(norm(int96Nanos(want)), norm(got))
}

// norm makes values comparable with reflect.DeepEqual: bytes as strings,
// floats as their bits.
func norm(v any) any {
	switch x := v.(type) {
	case []byte:
		return string(x)
	case float32:
		return math.Float32bits(x)
	case float64:
		return math.Float64bits(x)
	case rows.Group:
		out := make([]any, len(x))
		for i, f := range x {
			out[i] = [2]any{f.Name, norm(f.Value)}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = norm(e)
		}
		return out
	case []rows.KeyValue:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = [2]any{norm(e.Key), norm(e.Value)}
		}
		return out
	}
	return v
}
