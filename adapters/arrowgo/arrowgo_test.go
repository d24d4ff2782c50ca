package arrowgo

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// chunk is one column chunk in a form both readers can produce: levels, and
// the non-null values formatted with %v.
type chunk struct {
	def, rep []int16
	values   []string
}

func (c chunk) String() string {
	return fmt.Sprintf("def=%v rep=%v values=%v", c.def, c.rep, c.values)
}

// readArrow reads every column chunk of a file with arrow-go's column chunk
// readers.
func readArrow(t *testing.T, data []byte) ([]chunk, error) {
	rdr, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	defer rdr.Close()
	var out []chunk
	for rg := range rdr.NumRowGroups() {
		group := rdr.RowGroup(rg)
		for col := range group.NumColumns() {
			cr, err := group.Column(col)
			if err != nil {
				return nil, err
			}
			meta, err := group.MetaData().ColumnChunk(col)
			if err != nil {
				return nil, err
			}
			c, err := readArrowChunk(cr, int(meta.NumValues()))
			if err != nil {
				return nil, fmt.Errorf("row group %d column %d: %w", rg, col, err)
			}
			out = append(out, c)
		}
	}
	return out, nil
}

func readArrowChunk(cr file.ColumnChunkReader, n int) (chunk, error) {
	var c chunk
	def := make([]int16, n)
	rep := make([]int16, n)
	var total int64
	var read int
	var err error
	format := func(vals any, k int) {
		switch v := vals.(type) {
		case []parquet.ByteArray:
			for _, x := range v[:k] {
				c.values = append(c.values, fmt.Sprintf("%x", []byte(x)))
			}
		case []parquet.FixedLenByteArray:
			for _, x := range v[:k] {
				c.values = append(c.values, fmt.Sprintf("%x", []byte(x)))
			}
		case []parquet.Int96:
			for _, x := range v[:k] {
				c.values = append(c.values, fmt.Sprintf("%x", x[:]))
			}
		case []bool:
			for _, x := range v[:k] {
				c.values = append(c.values, fmt.Sprint(x))
			}
		case []int32:
			for _, x := range v[:k] {
				c.values = append(c.values, fmt.Sprint(x))
			}
		case []int64:
			for _, x := range v[:k] {
				c.values = append(c.values, fmt.Sprint(x))
			}
		case []float32:
			for _, x := range v[:k] {
				c.values = append(c.values, fmt.Sprint(x))
			}
		case []float64:
			for _, x := range v[:k] {
				c.values = append(c.values, fmt.Sprint(x))
			}
		}
	}
	switch r := cr.(type) {
	case *file.BooleanColumnChunkReader:
		v := make([]bool, n)
		total, read, err = r.ReadBatch(int64(n), v, def, rep)
		format(v, read)
	case *file.Int32ColumnChunkReader:
		v := make([]int32, n)
		total, read, err = r.ReadBatch(int64(n), v, def, rep)
		format(v, read)
	case *file.Int64ColumnChunkReader:
		v := make([]int64, n)
		total, read, err = r.ReadBatch(int64(n), v, def, rep)
		format(v, read)
	case *file.Int96ColumnChunkReader:
		v := make([]parquet.Int96, n)
		total, read, err = r.ReadBatch(int64(n), v, def, rep)
		format(v, read)
	case *file.Float32ColumnChunkReader:
		v := make([]float32, n)
		total, read, err = r.ReadBatch(int64(n), v, def, rep)
		format(v, read)
	case *file.Float64ColumnChunkReader:
		v := make([]float64, n)
		total, read, err = r.ReadBatch(int64(n), v, def, rep)
		format(v, read)
	case *file.ByteArrayColumnChunkReader:
		v := make([]parquet.ByteArray, n)
		total, read, err = r.ReadBatch(int64(n), v, def, rep)
		format(v, read)
	case *file.FixedLenByteArrayColumnChunkReader:
		v := make([]parquet.FixedLenByteArray, n)
		total, read, err = r.ReadBatch(int64(n), v, def, rep)
		format(v, read)
	default:
		return c, fmt.Errorf("unexpected reader %T", cr)
	}
	if err != nil {
		return c, err
	}
	if cr.Descriptor().MaxDefinitionLevel() > 0 {
		c.def = def[:total]
	}
	if cr.Descriptor().MaxRepetitionLevel() > 0 {
		c.rep = rep[:total]
	}
	return c, nil
}

// readOurs reads every column chunk with pqcodec's column reader.
func readOurs(data []byte) ([]chunk, error) {
	f, err := column.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	var out []chunk
	var p column.Page
	for rg := range f.NumRowGroups() {
		for col := range f.NumColumns() {
			r, err := f.Column(rg, col)
			if err != nil {
				return nil, err
			}
			var c chunk
			for {
				err := r.ReadPage(&p)
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					return nil, err
				}
				c.def = append(c.def, p.DefLevels...)
				c.rep = append(c.rep, p.RepLevels...)
				for i := range p.Values.Len() {
					switch v := p.Values.Value(i).(type) {
					case []byte:
						c.values = append(c.values, fmt.Sprintf("%x", v))
					case [12]byte:
						c.values = append(c.values, fmt.Sprintf("%x", v[:]))
					default:
						c.values = append(c.values, fmt.Sprint(v))
					}
				}
			}
			out = append(out, c)
		}
	}
	return out, nil
}

// withAdapter runs fn with pqcodec's codecs registered in arrow-go, and
// restores arrow-go's own codecs afterwards.
func withAdapter(t testing.TB, fn func()) {
	t.Helper()
	saved := map[codecfactory.Codec]compress.Codec{}
	for _, c := range Registered {
		if codec, err := compress.GetCodec(compress.Compression(c)); err == nil {
			saved[c] = codec
		}
	}
	require.NoError(t, Register())
	defer func() {
		for _, c := range Registered {
			if codec, ok := saved[c]; ok {
				compress.RegisterCodec(compress.Compression(c), codec)
			} else {
				compress.RegisterCodec(compress.Compression(c), unregistered{})
			}
		}
	}()
	fn()
}

// unregistered stands for a codec arrow-go does not have (LZ4, LZO): it
// fails every call, as GetCodec's error would.
type unregistered struct{}

func (unregistered) Encode(dst, src []byte) []byte             { panic("codec not registered") }
func (unregistered) EncodeLevel(dst, src []byte, _ int) []byte { panic("codec not registered") }
func (unregistered) CompressBound(n int64) int64               { return n }
func (unregistered) Decode(dst, src []byte) []byte             { panic("codec not registered") }
func (unregistered) DecodeWithError(dst, src []byte) ([]byte, error) {
	return nil, errors.New("codec not registered")
}

// TestReadCorpus reads every file of parquet-testing whose codec the adapter
// serves with arrow-go plus the adapter, and compares every chunk with
// pqcodec's own column reader. The LZ4 files are ones arrow-go cannot read
// alone (CATALOG.md: "compression for LZ4 unimplemented").
func TestReadCorpus(t *testing.T) {
	dir := filepath.Join(testcorpus.Dir(t), "data")
	files := []string{
		"hadoop_lz4_compressed.parquet",
		"hadoop_lz4_compressed_larger.parquet",
		"non_hadoop_lz4_compressed.parquet",
		"lz4_raw_compressed.parquet",
		"lz4_raw_compressed_larger.parquet",
		"byte_stream_split.zstd.parquet",
		"delta_length_byte_array.parquet",
		"page_v2_empty_compressed.parquet",
		"nested_structs.rust.parquet",
		"concatenated_gzip_members.parquet",
		"byte_stream_split_extended.gzip.parquet",
		"data_index_bloom_encoding_stats.parquet",
		"incorrect_map_schema.parquet",
		"rle_boolean_encoding.parquet",
		"geospatial/geography-points.parquet",
	}
	for _, name := range files {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, name))
			require.NoError(t, err)
			want, err := readOurs(data)
			require.NoError(t, err)
			withAdapter(t, func() {
				got, err := readArrow(t, data)
				require.NoError(t, err)
				require.Equal(t, len(want), len(got))
				for i := range want {
					require.Equal(t, want[i].String(), got[i].String(), "chunk %d", i)
				}
			})
		})
	}
	t.Run("lz4 unreadable without the adapter", func(t *testing.T) {
		// arrow-go's ReadBatch reports a page it cannot decompress by
		// returning no values (and sometimes no error).
		data, err := os.ReadFile(filepath.Join(dir, "hadoop_lz4_compressed.parquet"))
		require.NoError(t, err)
		want, err := readOurs(data)
		require.NoError(t, err)
		got, err := readArrow(t, data)
		if err == nil {
			require.NotEqual(t, fmt.Sprint(want), fmt.Sprint(got))
		}
	})
}

func testRecord(n int) arrow.Record {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "price", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i := range n {
		b.Field(0).(*array.Int64Builder).Append(int64(i) * 7)
		if i%13 == 0 {
			b.Field(1).AppendNull()
			b.Field(2).AppendNull()
			continue
		}
		b.Field(1).(*array.Float64Builder).Append(float64(i%1000) / 8)
		b.Field(2).(*array.StringBuilder).Append(fmt.Sprintf("name-%d", i%97))
	}
	return b.NewRecord()
}

func writeArrow(t testing.TB, codec compress.Compression, rec arrow.Record) []byte {
	var buf bytes.Buffer
	props := parquet.NewWriterProperties(parquet.WithCompression(codec), parquet.WithDataPageSize(64<<10))
	w, err := pqarrow.NewFileWriter(rec.Schema(), &buf, props, pqarrow.DefaultWriterProps())
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// TestWrite has arrow-go write files with pqcodec's LZO, LZ4 (Hadoop),
// ZSTD, BROTLI and GZIP; pqcodec's reader reads them back, and so does plain
// arrow-go for the codecs it has.
func TestWrite(t *testing.T) {
	rec := testRecord(50_000)
	defer rec.Release()
	for _, c := range []codecfactory.Codec{codecfactory.Lzo, codecfactory.Lz4, codecfactory.Zstd, codecfactory.Brotli, codecfactory.Gzip, codecfactory.Lz4Raw} {
		t.Run(c.String(), func(t *testing.T) {
			if c == codecfactory.Lzo {
				if err := lzoAvailable(); err != nil {
					t.Skip(err)
				}
			}
			var data []byte
			withAdapter(t, func() { data = writeArrow(t, compress.Compression(c), rec) })
			ours, err := readOurs(data)
			require.NoError(t, err)
			f, err := column.Open(bytes.NewReader(data), int64(len(data)))
			require.NoError(t, err)
			require.EqualValues(t, c, f.MetaData().RowGroups[0].Columns[0].MetaData.Codec)
			require.Len(t, ours[0].values, 50_000)
			if c == codecfactory.Lzo || c == codecfactory.Lz4 {
				return // arrow-go alone cannot read these
			}
			plain, err := readArrow(t, data)
			require.NoError(t, err)
			for i := range ours {
				require.Equal(t, ours[i].String(), plain[i].String())
			}
		})
	}
}

// lzoAvailable returns why this build cannot compress LZO, or nil.
func lzoAvailable() error {
	f, err := codecfactory.New()
	if err != nil {
		return err
	}
	_, err = f.Compress(codecfactory.Lzo, nil, []byte("x"))
	return err
}

func TestCorruptPageIsAnError(t *testing.T) {
	for _, c := range Registered {
		codec, err := NewCodec(c)
		require.NoError(t, err)
		dst := make([]byte, 1000)
		_, err = codec.DecodeWithError(dst, []byte(strings.Repeat("\xff garbage", 20)))
		require.Error(t, err, c.String())
	}
}
