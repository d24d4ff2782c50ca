package rows

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/logical"
)

// mapLeaves returns v with every leaf value replaced by fn's result.
func mapLeaves(t *testing.T, v any, fn func(any) any) any {
	switch v := v.(type) {
	case nil:
		return nil
	case Group:
		out := make(Group, len(v))
		for i, f := range v {
			out[i] = Field{f.Name, mapLeaves(t, f.Value, fn)}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = mapLeaves(t, e, fn)
		}
		return out
	case []KeyValue:
		t.Fatalf("map in a single-leaf projection")
	}
	return fn(v)
}

// jsonText is a leaf already rendered as JSON text, for appendJSON.
type jsonText string

// expectLogical renders the physical value v of leaf l as the package
// documentation says, written independently of the package (with package
// time, fmt and big) for the years time formats.
func expectLogical(t *testing.T, l logical.Leaf, v any) any {
	q := func(s string) jsonText { return jsonText(`"` + s + `"`) }
	layout := ".000000000"
	switch l.Unit {
	case format.Millis:
		layout = ".000"
	case format.Micros:
		layout = ".000000"
	}
	inYears := func(tm time.Time) bool { return tm.Year() >= 0 && tm.Year() <= 9999 }
	switch l.Kind {
	case logical.KindPhysical, logical.KindString:
		return v
	case logical.KindDate:
		tm := time.Unix(int64(v.(int32))*86400, 0).UTC()
		if !inYears(tm) {
			return q(string(logical.AppendDate(nil, v.(int32))))
		}
		return q(tm.Format("2006-01-02"))
	case logical.KindTimestamp, logical.KindInt96:
		var tm time.Time
		if l.Kind == logical.KindInt96 {
			tm = logical.Int96Time(v.([12]byte))
		} else {
			var err error
			tm, err = logical.Timestamp(v.(int64), l.Unit)
			if err != nil {
				t.Fatal(err)
			}
		}
		if !inYears(tm) {
			if l.Kind == logical.KindInt96 {
				return q(string(logical.AppendInt96(nil, v.([12]byte))))
			}
			b, err := logical.AppendTimestamp(nil, v.(int64), l.Unit, l.UTC)
			if err != nil {
				t.Fatal(err)
			}
			return q(string(b))
		}
		s := tm.Format("2006-01-02T15:04:05" + layout)
		if l.UTC {
			s += "Z"
		}
		return q(s)
	case logical.KindTime:
		var x int64
		switch v := v.(type) {
		case int32:
			x = int64(v)
		case int64:
			x = v
		}
		d, err := logical.TimeOfDay(x, l.Unit)
		if err != nil {
			t.Fatal(err)
		}
		if d < 0 || d >= 24*time.Hour {
			return jsonText(strconv.FormatInt(x, 10))
		}
		s := time.Unix(0, int64(d)).UTC().Format("15:04:05" + layout)
		if l.UTC {
			s += "Z"
		}
		return q(s)
	case logical.KindDecimal:
		var d logical.Decimal
		switch v := v.(type) {
		case int32:
			d = logical.Decimal{Unscaled: bigInt(int64(v)), Scale: l.Scale}
		case int64:
			d = logical.Decimal{Unscaled: bigInt(v), Scale: l.Scale}
		case []byte:
			d = logical.Decimal{Unscaled: logical.DecimalBigInt(nil, v), Scale: l.Scale}
		}
		return jsonText(d.String())
	case logical.KindUUID:
		b := v.([]byte)
		return q(fmt.Sprintf("%x-%x-%x-%x-%x", b[:4], b[4:6], b[6:8], b[8:10], b[10:]))
	case logical.KindInterval:
		return q(logical.IntervalOf(v.([]byte)).String())
	case logical.KindFloat16:
		return logical.Float16Of(v.([]byte))
	case logical.KindInteger:
		x, err := l.Value(v)
		if err != nil {
			t.Fatal(err)
		}
		return jsonText(fmt.Sprint(x))
	}
	t.Fatalf("kind %v", l.Kind)
	return nil
}

// TestLogicalCorpus reads every converted leaf outside a map of every
// corpus and foreign-writer file alone, logical and raw, and checks that each logical
// JSON row is the raw row with every leaf rendered as expectLogical says,
// and each logical Go row the raw row converted by logical.Leaf.Value
// (the first 3000 rows of each).
func TestLogicalCorpus(t *testing.T) {
	files, _ := filepath.Glob("../testdata/foreign/*/*.parquet")
	files = append(files, corpusFiles(t)...)
	kinds := map[logical.Kind]int{}
	for _, path := range files {
		f, err := column.OpenFile(path)
		if err != nil {
			continue
		}
	leaves:
		for _, leaf := range f.Schema().Leaves() {
			for n := leaf; n.Parent != nil; n = n.Parent {
				if isMap(n) {
					continue leaves
				}
			}
			l := logical.LeafOf(leaf.Element)
			if l.Kind == logical.KindPhysical || l.Kind == logical.KindString {
				continue // the same in both forms (TestCorpus)
			}
			p := strings.Join(leaf.Path(), ".")
			raw, err := NewReader(f, WithColumns(p), WithRaw(), WithRange(0, 3000))
			require.NoError(t, err)
			lj, err := NewReader(f, WithColumns(p), WithRange(0, 3000))
			require.NoError(t, err)
			lv, err := NewReader(f, WithColumns(p), WithRange(0, 3000))
			require.NoError(t, err)
			var line []byte
			for row := 0; ; row++ {
				g, err := raw.ReadRow(nil)
				line, jerr := lj.AppendRow(line[:0])
				v, verr := lv.ReadRow(nil)
				if errors.Is(err, io.EOF) {
					require.ErrorIs(t, jerr, io.EOF)
					require.ErrorIs(t, verr, io.EOF)
					break
				}
				if err != nil {
					require.Error(t, jerr)
					require.Error(t, verr)
					break
				}
				if jerr != nil || verr != nil {
					t.Fatalf("%s %s row %d: %v, %v", path, p, row, jerr, verr)
				}
				want := appendJSON(nil, mapLeaves(t, g, func(x any) any { return expectLogical(t, l, x) }))
				if string(want) != string(line) || !json.Valid(line) {
					t.Fatalf("%s %s row %d:\n got %s\nwant %s", path, p, row, line, want)
				}
				conv := mapLeaves(t, g, func(x any) any {
					y, err := l.Value(x)
					if err != nil {
						t.Fatal(err)
					}
					return y
				})
				// DeepEqual fails on NaN: then compare the printed forms.
				if !reflect.DeepEqual(conv, any(Group(v))) && fmt.Sprintf("%#v", conv) != fmt.Sprintf("%#v", Group(v)) {
					t.Fatalf("%s %s row %d: ReadRow gives %#v, want %#v", path, p, row, Group(v), conv)
				}
				kinds[l.Kind]++
			}
		}
		f.Close()
	}
	t.Logf("values by kind: %v", kinds)
	for _, k := range []logical.Kind{logical.KindDate, logical.KindTimestamp, logical.KindInt96, logical.KindDecimal,
		logical.KindUUID, logical.KindInteger, logical.KindTime, logical.KindFloat16} {
		assert.Greater(t, kinds[k], 0, "no %v values in the corpus", k)
	}
}

func bigInt(v int64) *big.Int { return big.NewInt(v) }

// BenchmarkAppendRowLogical times AppendRow over every row of DuckDB's file
// of every type (45 columns, 1200 rows, 16 of them converted), logical
// (the default) and WithRaw.
func BenchmarkAppendRowLogical(b *testing.B) {
	f, err := column.OpenFile("../testdata/foreign/duckdb/default.parquet")
	require.NoError(b, err)
	defer f.Close()
	for _, mode := range []string{"logical", "raw"} {
		b.Run("mode="+mode, func(b *testing.B) {
			var opts []Option
			if mode == "raw" {
				opts = append(opts, WithRaw())
			}
			var line []byte
			size := int64(0)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				r, err := NewReader(f, opts...)
				if err != nil {
					b.Fatal(err)
				}
				size = 0
				for {
					line, err = r.AppendRow(line[:0])
					if errors.Is(err, io.EOF) {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					size += int64(len(line))
				}
			}
			b.SetBytes(size)
		})
	}
}

// TestGenericReaderLogical reads DuckDB's file of every type into a struct
// of the logical Go types.
func TestGenericReaderLogical(t *testing.T) {
	type row struct {
		ID   int32           `parquet:"id"`
		U64  uint64          `parquet:"u64"`
		D38  logical.Decimal `parquet:"d38"`
		Dt   time.Time       `parquet:"dt"`
		Tm   time.Duration   `parquet:"tm"`
		Tstz time.Time       `parquet:"tstz"`
		UU   [16]byte        `parquet:"uu"`
		I8   *int8           `parquet:"i8"`
	}
	f, err := column.OpenFile("../testdata/foreign/duckdb/default.parquet")
	require.NoError(t, err)
	defer f.Close()
	g, err := NewGenericReader[row](f, WithRange(1, 1))
	require.NoError(t, err)
	rows := make([]row, 1)
	n, err := g.Read(rows)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	r := rows[0]
	assert.Equal(t, int32(1), r.ID)
	assert.Equal(t, uint64(0), r.U64)
	assert.Equal(t, "-9999999999999999999999999999.9999999999", r.D38.String())
	assert.Equal(t, time.Date(1833, 3, 17, 0, 0, 0, 0, time.UTC), r.Dt)
	assert.Equal(t, 28123456*time.Microsecond, r.Tm)
	assert.Equal(t, time.Date(2020, 6, 1, 0, 0, 0, 77777000, time.UTC), r.Tstz)
	assert.Equal(t, "e4774cdd-a079-3f86-414e-8b9140bb6db4", logical.UUID(r.UU).String())
	require.NotNil(t, r.I8)
	assert.Equal(t, int8(127), *r.I8)
}
