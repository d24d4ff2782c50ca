package zstd

import (
	"bytes"
	"testing"

	kzstd "github.com/klauspost/compress/zstd"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/native/internal/nativetest"
)

func codec() nativetest.Codec {
	level := func(l int) func() (nativetest.Compressor, error) {
		return func() (nativetest.Compressor, error) { return NewCompressor(l) }
	}
	return nativetest.Codec{
		NewCompressor: level(3),
		Levels: map[string]func() (nativetest.Compressor, error){
			"fast-5": level(-5), "1": level(1), "19": level(19),
		},
		NewDecompressor: func() (nativetest.Decompressor, error) { return NewDecompressor() },
		CompressBound:   CompressBound,
		ErrCorrupt:      ErrCorrupt,
		ErrDstTooSmall:  ErrDstTooSmall,
		ErrClosed:       ErrClosed,
		Invalid: map[string][]byte{
			"empty":         {},
			"magic only":    {0x28, 0xb5, 0x2f, 0xfd},
			"bad magic":     []byte("not a zstd frame at all"),
			"reserved bit":  {0x28, 0xb5, 0x2f, 0xfd, 0x08, 0, 0, 0, 0},
			"skippable cut": {0x50, 0x2a, 0x4d, 0x18, 0x05, 0x00, 0x00, 0x00, 0x00},
		},
		TruncationsDetected: true,
	}
}

// skipUnlessAvailable has a twin in the tests of each other native package
// (brotli, deflate, lzo): each checks its own constructors and sentinel.
func skipUnlessAvailable(t testing.TB) {
	t.Helper()
	if !Available {
		_, err := NewDecompressor()
		require.ErrorIs(t, err, ErrUnavailable)
		_, err = NewCompressor(3)
		require.ErrorIs(t, err, ErrUnavailable)
		t.Skip("built without cgo")
	}
}

func TestSuite(t *testing.T) {
	skipUnlessAvailable(t)
	nativetest.Run(t, codec())
}

func TestNewCompressorLevel(t *testing.T) {
	for _, l := range []int{MinLevel - 1, MaxLevel + 1} {
		_, err := NewCompressor(l)
		require.ErrorIs(t, err, ErrLevel)
	}
}

func TestCompressBound(t *testing.T) {
	// ZSTD_COMPRESSBOUND: n + n/256 + (n < 128 KiB ? (128 KiB - n) / 2048 : 0).
	for n, want := range map[int]int{0: 64, 1: 64, 2048: 2048 + 8 + 63, 128 << 10: 128<<10 + 512, 1 << 20: 1<<20 + 4096} {
		require.Equal(t, want, CompressBound(n), "n=%d", n)
	}
}

// TestOracle cross-decodes with github.com/klauspost/compress/zstd, a pure-Go
// implementation, in both directions.
func TestOracle(t *testing.T) {
	skipUnlessAvailable(t)
	enc, err := kzstd.NewWriter(nil, kzstd.WithEncoderConcurrency(1))
	require.NoError(t, err)
	defer enc.Close()
	kdec, err := kzstd.NewReader(nil, kzstd.WithDecoderConcurrency(1))
	require.NoError(t, err)
	defer kdec.Close()
	comp, err := NewCompressor(5)
	require.NoError(t, err)
	defer comp.Close()
	dec, err := NewDecompressor()
	require.NoError(t, err)
	defer dec.Close()

	for _, kind := range nativetest.Kinds {
		for _, n := range nativetest.OracleSizes() {
			src := nativetest.Gen(kind, n, 21)
			ours, err := comp.Compress(nil, src)
			require.NoError(t, err)
			got, err := kdec.DecodeAll(ours, nil)
			require.NoError(t, err)
			require.True(t, bytes.Equal(src, got), "klauspost decoding ours, %s %d", kind, n)
			size, known, err := FrameContentSize(ours)
			require.NoError(t, err)
			require.True(t, known)
			require.Equal(t, uint64(n), size)

			theirs := enc.EncodeAll(src, nil)
			got, err = dec.Decompress(make([]byte, 0, n), theirs)
			require.NoError(t, err)
			require.True(t, bytes.Equal(src, got), "ours decoding klauspost, %s %d", kind, n)
		}
	}
	// Several concatenated frames, with a skippable frame between them,
	// decode to the concatenated content.
	a, b := nativetest.ParquetPage(5000, 1), nativetest.ParquetPage(7000, 2)
	za, err := comp.Compress(nil, a)
	require.NoError(t, err)
	multi := append(za, 0x5e, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 'x', 'y', 'z')
	multi = enc.EncodeAll(b, multi)
	got, err := dec.Decompress(nil, multi)
	require.ErrorIs(t, err, ErrDstTooSmall)
	require.Nil(t, got)
	got, err = dec.Decompress(make([]byte, 0, len(a)+len(b)), multi)
	require.NoError(t, err)
	require.Equal(t, append(bytes.Clone(a), b...), got)
}

func TestFrameContentSize(t *testing.T) {
	// Single-segment frames always declare their size.
	enc, err := kzstd.NewWriter(nil, kzstd.WithEncoderConcurrency(1), kzstd.WithSingleSegment(true))
	require.NoError(t, err)
	defer enc.Close()
	for _, n := range []int{0, 1, 255, 256, 65535, 65536 + 255, 65536 + 256, 1 << 20} {
		z := enc.EncodeAll(nativetest.ParquetPage(n, 1), nil)
		size, known, err := FrameContentSize(z)
		require.NoError(t, err, "n=%d", n)
		require.True(t, known, "n=%d", n)
		require.Equal(t, uint64(n), size)
	}
	// A streamed frame (no declared size).
	var buf bytes.Buffer
	w, err := kzstd.NewWriter(&buf, kzstd.WithEncoderConcurrency(1))
	require.NoError(t, err)
	_, err = w.Write([]byte("streamed without a size"))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	_, known, err := FrameContentSize(buf.Bytes())
	require.NoError(t, err)
	require.False(t, known)

	magic := []byte{0x28, 0xb5, 0x2f, 0xfd}
	frame := func(b ...byte) []byte { return append(bytes.Clone(magic), b...) }
	for name, tc := range map[string]struct {
		src   []byte
		size  uint64
		known bool
		bad   bool
	}{
		"empty":               {src: nil, bad: true},
		"short":               {src: magic[:3], bad: true},
		"magic only":          {src: magic, bad: true},
		"bad magic":           {src: []byte{1, 2, 3, 4, 5, 6}, bad: true},
		"reserved bit":        {src: frame(0x28, 7), bad: true},
		"single 1-byte fcs":   {src: frame(0x20, 200), size: 200, known: true},
		"2-byte fcs":          {src: frame(0x40|0x20, 0x10, 0x00), size: 256 + 16, known: true},
		"4-byte fcs + window": {src: frame(0x80, 0x50, 1, 2, 3, 4), size: 0x04030201, known: true},
		"8-byte fcs, dict 4":  {src: frame(0xc0|0x20|3, 9, 9, 9, 9, 1, 0, 0, 0, 0, 0, 0, 0x80), size: 1<<63 | 1, known: true},
		"truncated fcs":       {src: frame(0xc0|0x20, 1, 2, 3), bad: true},
		"no fcs":              {src: frame(0x00, 0x50), known: false},
		"window too large":    {src: frame(0x00, 22<<3), bad: true},
		"skippable":           {src: []byte{0x5f, 0x2a, 0x4d, 0x18, 0, 0, 0, 0}, known: false},
		"skippable truncated": {src: []byte{0x5f, 0x2a, 0x4d, 0x18, 0, 0}, bad: true},
	} {
		size, known, err := FrameContentSize(tc.src)
		if tc.bad {
			require.ErrorIs(t, err, ErrCorrupt, name)
			continue
		}
		require.NoError(t, err, name)
		require.Equal(t, tc.known, known, name)
		require.Equal(t, tc.size, size, name)
	}
	hdr := frame(0x20, 1)
	allocs := testing.AllocsPerRun(10, func() { _, _, _ = FrameContentSize(hdr) })
	require.Zero(t, allocs)
}

// TestCorpusPages decodes every zstd page of parquet-testing files written
// by several implementations, checking each against the size its page
// header declares and against klauspost/compress/zstd.
func TestCorpusPages(t *testing.T) {
	skipUnlessAvailable(t)
	nativetest.CheckCorpusPages(t, []string{
		"byte_stream_split.zstd.parquet", "delta_length_byte_array.parquet",
		"nested_structs.rust.parquet", "page_v2_empty_compressed.parquet",
		"geospatial/geography-points.parquet",
	}, func() (nativetest.Decompressor, error) { return NewDecompressor() },
		func(src []byte) ([]byte, error) {
			d, err := kzstd.NewReader(nil, kzstd.WithDecoderConcurrency(1))
			if err != nil {
				return nil, err
			}
			defer d.Close()
			return d.DecodeAll(src, nil)
		})
}
