package deflate

import (
	"bytes"
	stdgzip "compress/gzip"
	"io"
	"testing"

	kgzip "github.com/klauspost/compress/gzip"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/native/internal/nativetest"
)

func codec() nativetest.Codec {
	level := func(l int) func() (nativetest.Compressor, error) {
		return func() (nativetest.Compressor, error) { return NewCompressor(l) }
	}
	return nativetest.Codec{
		NewCompressor: level(6),
		Levels: map[string]func() (nativetest.Compressor, error){
			"0": level(0), "1": level(1), "9": level(9), "12": level(12),
		},
		NewDecompressor: func() (nativetest.Decompressor, error) { return NewDecompressor() },
		CompressBound:   CompressBound,
		ErrCorrupt:      ErrCorrupt,
		ErrDstTooSmall:  ErrDstTooSmall,
		ErrClosed:       ErrClosed,
		Invalid: map[string][]byte{
			"empty":          {},
			"bad magic":      []byte("not a gzip stream, definitely"),
			"header only":    {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff},
			"bad method":     {0x1f, 0x8b, 7, 0, 0, 0, 0, 0, 0, 0xff, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0},
			"wrong isize":    {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff, 3, 0, 0, 0, 0, 0, 1, 0, 0, 0},
			"wrong crc":      {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff, 0x4b, 4, 0, 0x44, 0xbe, 0xb7, 0xe8, 1, 0, 0, 0},
			"zero padding":   append(gz([]byte("x")), 0, 0, 0, 0),
			"second trunc.":  append(gz([]byte("x")), gz([]byte("y"))[:15]...),
			"second garbage": append(gz([]byte("x")), 0x1f, 0x8b, 0xff),
		},
		TruncationsDetected: true,
	}
}

// gz gzips b with compress/gzip.
func gz(b []byte) []byte {
	var buf bytes.Buffer
	w := stdgzip.NewWriter(&buf)
	if _, err := w.Write(b); err != nil {
		panic(err)
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// skipUnlessAvailable has a twin in the tests of each other native package
// (brotli, lzo, zstd): each checks its own constructors and sentinel.
func skipUnlessAvailable(t testing.TB) {
	t.Helper()
	if !Available {
		_, err := NewDecompressor()
		require.ErrorIs(t, err, ErrUnavailable)
		_, err = NewCompressor(6)
		require.ErrorIs(t, err, ErrUnavailable)
		t.Skip("built without cgo")
	}
}

func TestSuite(t *testing.T) {
	skipUnlessAvailable(t)
	nativetest.Run(t, codec())
}

func TestNewCompressorLevel(t *testing.T) {
	for _, l := range []int{-1, 13} {
		_, err := NewCompressor(l)
		require.ErrorIs(t, err, ErrLevel)
	}
}

func TestCompressBound(t *testing.T) {
	for n, want := range map[int]int{0: 32, 1: 33, 5000: 5032, 5001: 5038, 65536: 65633, 1 << 20: 1049653} {
		require.Equal(t, want, CompressBound(n), "n=%d", n)
	}
}

// TestOracle cross-decodes with compress/gzip and
// github.com/klauspost/compress/gzip in both directions, including streams
// of several members written by different implementations.
func TestOracle(t *testing.T) {
	skipUnlessAvailable(t)
	comp, err := NewCompressor(6)
	require.NoError(t, err)
	defer comp.Close()
	dec, err := NewDecompressor()
	require.NoError(t, err)
	defer dec.Close()

	type reader interface {
		io.Reader
		Multistream(bool)
	}
	readers := map[string]func(io.Reader) (io.Reader, error){
		"compress/gzip":  func(r io.Reader) (io.Reader, error) { return stdgzip.NewReader(r) },
		"klauspost/gzip": func(r io.Reader) (io.Reader, error) { return kgzip.NewReader(r) },
	}
	writers := map[string]func([]byte) []byte{
		"compress/gzip": gz,
		"klauspost/gzip": func(b []byte) []byte {
			var buf bytes.Buffer
			w := kgzip.NewWriter(&buf)
			_, err := w.Write(b)
			require.NoError(t, err)
			require.NoError(t, w.Close())
			return buf.Bytes()
		},
	}
	for _, kind := range nativetest.Kinds {
		for _, n := range nativetest.OracleSizes() {
			src := nativetest.Gen(kind, n, 31)
			ours, err := comp.Compress(nil, src)
			require.NoError(t, err)
			for name, newReader := range readers {
				r, err := newReader(bytes.NewReader(ours))
				require.NoError(t, err)
				got, err := io.ReadAll(r)
				require.NoError(t, err)
				require.True(t, bytes.Equal(src, got), "%s decoding ours, %s %d", name, kind, n)
			}
			for name, write := range writers {
				got, err := dec.Decompress(make([]byte, 0, n), write(src))
				require.NoError(t, err)
				require.True(t, bytes.Equal(src, got), "ours decoding %s, %s %d", name, kind, n)
			}
		}
	}

	// Multi-member pages: members from all three writers, some empty.
	var parts [][]byte
	var multi []byte
	for i := range 7 {
		part := nativetest.ParquetPage(i*3000, uint64(i))
		parts = append(parts, part)
		switch i % 3 {
		case 0:
			multi, err = comp.Compress(multi, part)
			require.NoError(t, err)
		case 1:
			multi = append(multi, writers["compress/gzip"](part)...)
		default:
			multi = append(multi, writers["klauspost/gzip"](part)...)
		}
	}
	want := bytes.Join(parts, nil)
	for name, newReader := range readers {
		r, err := newReader(bytes.NewReader(multi))
		require.NoError(t, err)
		got, err := io.ReadAll(r)
		require.NoError(t, err)
		require.True(t, bytes.Equal(want, got), "%s decoding multi-member", name)
	}
	dst := nativetest.WithCanary([]byte("x"), len(want))
	got, err := dec.Decompress(dst, multi)
	require.NoError(t, err)
	require.True(t, bytes.Equal(want, got[1:]))
	require.True(t, nativetest.CanaryIntact(dst))
	// One byte short: the last member does not fit.
	_, err = dec.Decompress(nativetest.WithCanary(nil, len(want)-1), multi)
	require.ErrorIs(t, err, ErrDstTooSmall)
}

// TestCorpusPages decodes every gzip page of parquet-testing files,
// including one whose page is made of several gzip members, checking each
// against the size its page header declares and against compress/gzip.
func TestCorpusPages(t *testing.T) {
	skipUnlessAvailable(t)
	nativetest.CheckCorpusPages(t, []string{
		"concatenated_gzip_members.parquet", "byte_stream_split_extended.gzip.parquet",
		"rle_boolean_encoding.parquet", "data_index_bloom_encoding_stats.parquet",
	}, func() (nativetest.Decompressor, error) { return NewDecompressor() },
		func(src []byte) ([]byte, error) {
			r, err := stdgzip.NewReader(bytes.NewReader(src))
			if err != nil {
				return nil, err
			}
			return io.ReadAll(r)
		})
}
