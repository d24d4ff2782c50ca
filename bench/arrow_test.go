package bench

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"
	"github.com/stretchr/testify/require"
)

// arrow-go keeps its encoders and decoders in parquet/internal/encoding,
// which other modules cannot import. The lowest public level is the column
// chunk reader of parquet/file, so the arrowgo rows decode a one-column,
// one-page, uncompressed file held in memory: each operation opens the
// column chunk (a page reader and a page header to parse) and reads every
// value with ReadBatch. That overhead is part of arrow-go's cheapest public
// path; it is small next to a 64 KiB page. Encode rows have no arrowgo
// implementation: its writer adds statistics, page and footer work that no
// other implementation of those rows does.

// arrowFile writes values of physical type typ with encoding enc into a
// one-page in-memory Parquet file and returns a reader of it. write gets the
// column chunk writer.
func arrowFile(tb testing.TB, typ parquet.Type, enc parquet.Encoding, write func(file.ColumnChunkWriter) error) *file.Reader {
	tb.Helper()
	node, err := schema.NewPrimitiveNode("v", parquet.Repetitions.Required, typ, -1, -1)
	require.NoError(tb, err)
	root, err := schema.NewGroupNode("schema", parquet.Repetitions.Required, schema.FieldList{node}, -1)
	require.NoError(tb, err)
	props := parquet.NewWriterProperties(
		parquet.WithDictionaryDefault(false),
		parquet.WithEncoding(enc),
		parquet.WithCompression(compress.Codecs.Uncompressed),
		parquet.WithDataPageSize(1<<30),
		parquet.WithStats(false),
		parquet.WithDataPageVersion(parquet.DataPageV1),
	)
	var buf bytes.Buffer
	w := file.NewParquetWriter(&buf, root, file.WithWriterProps(props))
	rg := w.AppendRowGroup()
	cw, err := rg.NextColumn()
	require.NoError(tb, err)
	require.NoError(tb, write(cw))
	require.NoError(tb, cw.Close())
	require.NoError(tb, rg.Close())
	require.NoError(tb, w.Close())
	r, err := file.NewParquetReader(bytes.NewReader(buf.Bytes()))
	require.NoError(tb, err)
	return r
}

// arrowColumn opens the first column chunk of r.
func arrowColumn(r *file.Reader) (file.ColumnChunkReader, error) {
	return r.RowGroup(0).Column(0)
}

// arrowReadAll reads n values with read, which wraps one ReadBatch call of
// a typed column chunk reader.
func arrowReadAll(n int, read func(off int) (int, error)) error {
	for off := 0; off < n; {
		k, err := read(off)
		if err != nil {
			return err
		}
		if k == 0 {
			return fmt.Errorf("arrowgo: %d of %d values read", off, n)
		}
		off += k
	}
	return nil
}

func arrowInt32(tb testing.TB, enc parquet.Encoding, v []int32) func(dst []int32) error {
	r := arrowFile(tb, parquet.Types.Int32, enc, func(cw file.ColumnChunkWriter) error {
		_, err := cw.(*file.Int32ColumnChunkWriter).WriteBatch(v, nil, nil)
		return err
	})
	return func(dst []int32) error {
		cr, err := arrowColumn(r)
		if err != nil {
			return err
		}
		c := cr.(*file.Int32ColumnChunkReader)
		return arrowReadAll(len(dst), func(off int) (int, error) {
			_, k, err := c.ReadBatch(int64(len(dst)-off), dst[off:], nil, nil)
			return k, err
		})
	}
}

func arrowInt64(tb testing.TB, enc parquet.Encoding, v []int64) func(dst []int64) error {
	r := arrowFile(tb, parquet.Types.Int64, enc, func(cw file.ColumnChunkWriter) error {
		_, err := cw.(*file.Int64ColumnChunkWriter).WriteBatch(v, nil, nil)
		return err
	})
	return func(dst []int64) error {
		cr, err := arrowColumn(r)
		if err != nil {
			return err
		}
		c := cr.(*file.Int64ColumnChunkReader)
		return arrowReadAll(len(dst), func(off int) (int, error) {
			_, k, err := c.ReadBatch(int64(len(dst)-off), dst[off:], nil, nil)
			return k, err
		})
	}
}

func arrowFloat32(tb testing.TB, enc parquet.Encoding, v []float32) func(dst []float32) error {
	r := arrowFile(tb, parquet.Types.Float, enc, func(cw file.ColumnChunkWriter) error {
		_, err := cw.(*file.Float32ColumnChunkWriter).WriteBatch(v, nil, nil)
		return err
	})
	return func(dst []float32) error {
		cr, err := arrowColumn(r)
		if err != nil {
			return err
		}
		c := cr.(*file.Float32ColumnChunkReader)
		return arrowReadAll(len(dst), func(off int) (int, error) {
			_, k, err := c.ReadBatch(int64(len(dst)-off), dst[off:], nil, nil)
			return k, err
		})
	}
}

func arrowFloat64(tb testing.TB, enc parquet.Encoding, v []float64) func(dst []float64) error {
	r := arrowFile(tb, parquet.Types.Double, enc, func(cw file.ColumnChunkWriter) error {
		_, err := cw.(*file.Float64ColumnChunkWriter).WriteBatch(v, nil, nil)
		return err
	})
	return func(dst []float64) error {
		cr, err := arrowColumn(r)
		if err != nil {
			return err
		}
		c := cr.(*file.Float64ColumnChunkReader)
		return arrowReadAll(len(dst), func(off int) (int, error) {
			_, k, err := c.ReadBatch(int64(len(dst)-off), dst[off:], nil, nil)
			return k, err
		})
	}
}

func arrowBoolean(tb testing.TB, enc parquet.Encoding, v []bool) func(dst []bool) error {
	r := arrowFile(tb, parquet.Types.Boolean, enc, func(cw file.ColumnChunkWriter) error {
		_, err := cw.(*file.BooleanColumnChunkWriter).WriteBatch(v, nil, nil)
		return err
	})
	return func(dst []bool) error {
		cr, err := arrowColumn(r)
		if err != nil {
			return err
		}
		c := cr.(*file.BooleanColumnChunkReader)
		return arrowReadAll(len(dst), func(off int) (int, error) {
			_, k, err := c.ReadBatch(int64(len(dst)-off), dst[off:], nil, nil)
			return k, err
		})
	}
}

// arrowByteArrays reads into dst slices that alias arrow-go's page buffer:
// arrow-go's BYTE_ARRAY output is one slice header per value.
func arrowByteArrays(tb testing.TB, enc parquet.Encoding, b ByteArrays) func(dst []parquet.ByteArray) error {
	v := make([]parquet.ByteArray, b.Len())
	for i := range v {
		v[i] = b.Values[b.Offsets[i]:b.Offsets[i+1]]
	}
	r := arrowFile(tb, parquet.Types.ByteArray, enc, func(cw file.ColumnChunkWriter) error {
		_, err := cw.(*file.ByteArrayColumnChunkWriter).WriteBatch(v, nil, nil)
		return err
	})
	return func(dst []parquet.ByteArray) error {
		cr, err := arrowColumn(r)
		if err != nil {
			return err
		}
		c := cr.(*file.ByteArrayColumnChunkReader)
		return arrowReadAll(len(dst), func(off int) (int, error) {
			_, k, err := c.ReadBatch(int64(len(dst)-off), dst[off:], nil, nil)
			return k, err
		})
	}
}
