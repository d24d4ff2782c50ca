package bench

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"
	pq "github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/benchdata"
	"github.com/pqcodec/pqcodec/writer"
)

// Write benchmarks: one column of 8 MiB of PLAIN values written as a whole
// file (one row group, pages of 1 MiB, SNAPPY, dictionary on, data pages
// v1, statistics on) by package writer, by arrow-go's low-level column
// chunk writer (WriteBatch) and by parquet-go's GenericWriter, into memory.
// Each op builds a new writer, as a service writing one file per batch
// does. The output is read back once by column before timing.

const writeSize = 8 << 20

type writeColumn struct {
	name     string
	typ      format.Type
	optional bool
	values   column.Values
	def      []int16
}

func writeColumns() []writeColumn {
	ts := Timestamps(writeSize)
	ints := Ints(writeSize)
	lc, hc := LowCardStrings(writeSize), HighCardStrings(writeSize)
	dbl := SmoothDoubles(writeSize)
	def := make([]int16, len(ints))
	var nullable []int32
	for i := range def {
		if i%10 != 3 {
			def[i] = 1
			nullable = append(nullable, ints[i])
		}
	}
	return []writeColumn{
		{name: "timestamps", typ: format.Int64, values: column.Values{Type: format.Int64, Int64s: ts}},
		{name: "nullable-int32", typ: format.Int32, optional: true, values: column.Values{Type: format.Int32, Int32s: nullable}, def: def},
		{name: "smooth-doubles", typ: format.Double, values: column.Values{Type: format.Double, Doubles: dbl}},
		{name: "lowcard-strings", typ: format.ByteArray, values: column.Values{Type: format.ByteArray, Bytes: lc.Values, Offsets: lc.Offsets}},
		{name: "highcard-strings", typ: format.ByteArray, values: column.Values{Type: format.ByteArray, Bytes: hc.Values, Offsets: hc.Offsets}},
	}
}

func (c *writeColumn) rows() int {
	if c.optional {
		return len(c.def)
	}
	return c.values.Len()
}

func writeOurs(c *writeColumn, codecs *codecfactory.Factory, out io.Writer) error {
	rep := format.Required
	if c.optional {
		rep = format.Optional
	}
	s, err := writer.Message("m", writer.Leaf("v", rep, c.typ))
	if err != nil {
		return err
	}
	w, err := writer.New(out, s, writer.WithCodecs(codecs), writer.WithCodec(codecfactory.Snappy))
	if err != nil {
		return err
	}
	if err := w.Write(0, &c.values, c.def, nil); err != nil {
		return err
	}
	return w.Close()
}

func writeArrow(c *writeColumn, out io.Writer) error {
	rep := parquet.Repetitions.Required
	if c.optional {
		rep = parquet.Repetitions.Optional
	}
	typ := map[format.Type]parquet.Type{format.Int32: parquet.Types.Int32, format.Int64: parquet.Types.Int64,
		format.Double: parquet.Types.Double, format.ByteArray: parquet.Types.ByteArray}[c.typ]
	node, err := schema.NewPrimitiveNode("v", rep, typ, -1, -1)
	if err != nil {
		return err
	}
	root, err := schema.NewGroupNode("m", parquet.Repetitions.Required, schema.FieldList{node}, -1)
	if err != nil {
		return err
	}
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithDictionaryDefault(true), parquet.WithDataPageSize(1<<20), parquet.WithDictionaryPageSizeLimit(1<<20),
		parquet.WithStats(true), parquet.WithDataPageVersion(parquet.DataPageV1), parquet.WithMaxRowGroupLength(1<<30))
	w := file.NewParquetWriter(out, root, file.WithWriterProps(props))
	rg := w.AppendRowGroup()
	cw, err := rg.NextColumn()
	if err != nil {
		return err
	}
	switch c.typ {
	case format.Int32:
		_, err = cw.(*file.Int32ColumnChunkWriter).WriteBatch(c.values.Int32s, c.def, nil)
	case format.Int64:
		_, err = cw.(*file.Int64ColumnChunkWriter).WriteBatch(c.values.Int64s, c.def, nil)
	case format.Double:
		_, err = cw.(*file.Float64ColumnChunkWriter).WriteBatch(c.values.Doubles, c.def, nil)
	case format.ByteArray:
		vals := make([]parquet.ByteArray, c.values.Len()) // arrow-go's input form
		for i := range vals {
			vals[i] = c.values.ByteArray(i)
		}
		_, err = cw.(*file.ByteArrayColumnChunkWriter).WriteBatch(vals, c.def, nil)
	}
	if err != nil {
		return err
	}
	if err := cw.Close(); err != nil {
		return err
	}
	if err := rg.Close(); err != nil {
		return err
	}
	return w.Close()
}

type pqInt64 struct {
	V int64 `parquet:"v,dict"`
}
type pqOptInt32 struct {
	V *int32 `parquet:"v,optional,dict"`
}
type pqDouble struct {
	V float64 `parquet:"v,dict"`
}
type pqBytes struct {
	V []byte `parquet:"v,dict"`
}

// pqRows converts c to parquet-go's row structs (outside the timing).
func pqRows(c *writeColumn) any {
	switch c.typ {
	case format.Int64:
		rows := make([]pqInt64, c.rows())
		for i, v := range c.values.Int64s {
			rows[i].V = v
		}
		return rows
	case format.Int32:
		rows := make([]pqOptInt32, c.rows())
		k := 0
		for i, d := range c.def {
			if d == 1 {
				rows[i].V = &c.values.Int32s[k]
				k++
			}
		}
		return rows
	case format.Double:
		rows := make([]pqDouble, c.rows())
		for i, v := range c.values.Doubles {
			rows[i].V = v
		}
		return rows
	}
	rows := make([]pqBytes, c.rows())
	for i := range rows {
		rows[i].V = c.values.ByteArray(i)
	}
	return rows
}

func pqWrite[T any](rows []T, out io.Writer) error {
	w := pq.NewGenericWriter[T](out, pq.Compression(&pq.Snappy), pq.PageBufferSize(1<<20),
		pq.DataPageStatistics(true), pq.DataPageVersion(1), pq.MaxRowsPerRowGroup(1<<30))
	if _, err := w.Write(rows); err != nil {
		return err
	}
	return w.Close()
}

func writeParquetGo(rows any, out io.Writer) error {
	switch r := rows.(type) {
	case []pqInt64:
		return pqWrite(r, out)
	case []pqOptInt32:
		return pqWrite(r, out)
	case []pqDouble:
		return pqWrite(r, out)
	case []pqBytes:
		return pqWrite(r, out)
	}
	return fmt.Errorf("no rows")
}

// checkWritten reads b back with column and compares it with c.
func checkWritten(tb testing.TB, c *writeColumn, b []byte) {
	f, err := column.Open(bytes.NewReader(b), int64(len(b)))
	require.NoError(tb, err)
	var p column.Page
	var def []int16
	var i64 []int64
	var i32 []int32
	var dbl []float64
	var strs [][]byte
	for rg := range f.NumRowGroups() {
		r, err := f.Column(rg, 0)
		require.NoError(tb, err)
		for r.ReadPage(&p) == nil {
			def = append(def, p.DefLevels...)
			i64 = append(i64, p.Values.Int64s...)
			i32 = append(i32, p.Values.Int32s...)
			dbl = append(dbl, p.Values.Doubles...)
			for i := range p.Values.Len() {
				if p.Values.Type == format.ByteArray {
					strs = append(strs, bytes.Clone(p.Values.ByteArray(i)))
				}
			}
		}
	}
	if c.optional {
		require.Equal(tb, c.def, def)
	}
	switch c.typ {
	case format.Int64:
		require.Equal(tb, c.values.Int64s, i64)
	case format.Int32:
		require.Equal(tb, c.values.Int32s, i32)
	case format.Double:
		require.Equal(tb, c.values.Doubles, dbl)
	case format.ByteArray:
		require.Equal(tb, c.values.Len(), len(strs))
		for i := range strs {
			require.Equal(tb, c.values.ByteArray(i), strs[i])
		}
	}
}

// BenchmarkWrite writes each column with each writer.
func BenchmarkWrite(b *testing.B) {
	codecs, err := codecfactory.New()
	require.NoError(b, err)
	for _, c := range writeColumns() {
		rows := pqRows(&c)
		impls := []struct {
			name  string
			write func(io.Writer) error
		}{
			{"ours", func(w io.Writer) error { return writeOurs(&c, codecs, w) }},
			{"arrowgo", func(w io.Writer) error { return writeArrow(&c, w) }},
			{"parquetgo", func(w io.Writer) error { return writeParquetGo(rows, w) }},
		}
		for _, impl := range impls {
			var buf bytes.Buffer
			require.NoError(b, impl.write(&buf), impl.name)
			checkWritten(b, &c, buf.Bytes())
			size := buf.Len()
			b.Run("col="+c.name+"/impl="+impl.name, func(b *testing.B) { // impl= last, for benchtable
				b.SetBytes(int64(writeSize))
				b.ReportAllocs()
				cpu0 := benchdata.CPUTime()
				for b.Loop() {
					buf.Reset()
					if err := impl.write(&buf); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(benchdata.CPUTime()-cpu0)/float64(b.N), "cpu-ns/op")
				b.ReportMetric(float64(size)/float64(c.rows()), "B/row")
			})
		}
	}
}
