package column

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/errs"
	"github.com/pqcodec/pqcodec/internal/testfile"
)

// declaredSizeFile returns a file of one REQUIRED INT32 column of 1,000
// PLAIN values compressed with codec, in a v1 data page whose header
// declares uncompressed bytes (a header of testfile.Page would replace 0).
func declaredSizeFile(t *testing.T, codec format.CompressionCodec, uncompressed int32) []byte {
	t.Helper()
	f, err := codecfactory.New()
	require.NoError(t, err)
	var plain []byte
	for i := range 1000 {
		plain = binary.LittleEndian.AppendUint32(plain, uint32(i*i))
	}
	body, err := f.Compress(codecfactory.Codec(codec), nil, plain)
	require.NoError(t, err)
	page := format.AppendPageHeader(nil, &format.PageHeader{
		Type: format.DataPage, UncompressedPageSize: uncompressed, CompressedPageSize: int32(len(body)),
		HasDataPageHeader: true, DataPageHeader: format.DataPageHeader{
			NumValues: 1000, Encoding: format.Plain, DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE,
		},
	})
	page = append(page, body...)
	int32Type, required, one := format.Int32, format.Required, int32(1)
	schema := []format.SchemaElement{{Name: "schema", NumChildren: &one}, {Name: "v", Type: &int32Type, RepetitionType: &required}}
	return testfile.File(schema, 1000, []testfile.Chunk{{
		Meta:  format.ColumnMetaData{Type: format.Int32, PathInSchema: []string{"v"}, Codec: codec, NumValues: 1000},
		Pages: [][]byte{page},
	}}, nil)
}

// TestDeclaredSizeZero reads LZ4 (Hadoop) and LZ4_RAW pages, and those of
// every other codec, whose header declares an uncompressed_page_size of 0,
// 1, or less than the real size, through ReadPage and ReadRowGroup: each is
// a corrupt-page error. A declared 0 made codecfactory hand pierrec/lz4 a
// nil destination, which its assembly wrote through: SIGSEGV on the
// goroutine of ReadRowGroup, ending the process.
func TestDeclaredSizeZero(t *testing.T) {
	codecs := []format.CompressionCodec{format.LZ4, format.LZ4Raw, format.Snappy, format.Gzip, format.Brotli, format.Zstd, format.Uncompressed}
	f0, err := codecfactory.New()
	require.NoError(t, err)
	if f0.CanCompress(codecfactory.Lzo) {
		codecs = append(codecs, format.LZO)
	}
	for _, codec := range codecs {
		for _, size := range []int32{0, 1, 3999, -1} {
			b := declaredSizeFile(t, codec, size)
			f, err := Open(bytes.NewReader(b), int64(len(b)))
			require.NoError(t, err)
			r, err := f.Column(0, 0)
			require.NoError(t, err)
			var p Page
			err = r.ReadPage(&p)
			require.ErrorIs(t, err, errs.ErrCorrupt, "%v declaring %d: %v", codec, size, err)
			err = f.ReadRowGroup(context.Background(), 0, nil, 2, func(int, *Page) error { return nil })
			require.ErrorIs(t, err, errs.ErrCorrupt, "%v declaring %d: %v", codec, size, err)
		}
		// The honest page reads.
		b := declaredSizeFile(t, codec, 4000)
		f, err := Open(bytes.NewReader(b), int64(len(b)))
		require.NoError(t, err)
		require.NoError(t, readAll(f), "%v", codec)
	}
}

// TestReadRowGroupPanic injects a panic into the reading of one chunk of
// ReadRowGroup (through fn, on a worker goroutine): the call returns an
// error wrapping ErrInternal for that chunk, with the panic's value,
// instead of ending the process, and the File reads again afterwards.
func TestReadRowGroupPanic(t *testing.T) {
	b := declaredSizeFile(t, format.LZ4Raw, 4000)
	f, err := Open(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	for _, workers := range []int{1, 2} {
		err = f.ReadRowGroup(context.Background(), 0, nil, workers, func(int, *Page) error { panic("injected") })
		require.ErrorIs(t, err, ErrInternal)
		require.False(t, errors.Is(err, errs.ErrCorrupt))
		require.Contains(t, err.Error(), "panic: injected")
		var pe *PageError
		require.ErrorAs(t, err, &pe)
		require.Equal(t, "v", pe.Column)
		pages := 0
		require.NoError(t, f.ReadRowGroup(context.Background(), 0, nil, workers, func(int, *Page) error { pages++; return nil }))
		require.Equal(t, 1, pages)
	}
	// A panic below fn, inside the Reader, as the LZ4 one was: a ReaderAt
	// that panics stands in for a library that crashes.
	f2, err := Open(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	f2.r = panicReader{}
	err = f2.ReadRowGroup(context.Background(), 0, nil, 2, func(int, *Page) error { return nil })
	require.ErrorIs(t, err, ErrInternal)
	require.Contains(t, err.Error(), "panic: reader crashed")
}

// panicReader is an io.ReaderAt that panics, standing in for a library
// that crashes below a Reader.
type panicReader struct{}

func (panicReader) ReadAt([]byte, int64) (int, error) { panic("reader crashed") }

var _ io.ReaderAt = panicReader{}
