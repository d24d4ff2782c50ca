package brotli

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/native/internal/nativetest"
)

func codec() nativetest.Codec {
	level := func(q, w int) func() (nativetest.Compressor, error) {
		return func() (nativetest.Compressor, error) { return NewCompressor(q, w) }
	}
	return nativetest.Codec{
		NewCompressor: level(5, DefaultWindow),
		Levels: map[string]func() (nativetest.Compressor, error){
			"q0": level(0, DefaultWindow), "q1": level(1, 16), "q9-w10": level(9, 10),
			"q11-w24": level(11, 24),
		},
		NewDecompressor: func() (nativetest.Decompressor, error) { return NewDecompressor() },
		CompressBound:   CompressBound,
		ErrCorrupt:      ErrCorrupt,
		ErrDstTooSmall:  ErrDstTooSmall,
		ErrClosed:       ErrClosed,
		Invalid: map[string][]byte{
			"empty":            {},
			"reserved":         {0x1d, 0x00, 0x00}, // large-window marker, not enabled
			"text":             []byte("definitely not a brotli stream"),
			"empty + trailing": {0x06, 0x00},
			"truncated header": {0x0b},
		},
		TruncationsDetected: true,
	}
}

// skipUnlessAvailable has a twin in the tests of each other native package
// (deflate, lzo, zstd): each checks its own constructors and sentinel.
func skipUnlessAvailable(t testing.TB) {
	t.Helper()
	if !Available {
		_, err := NewDecompressor()
		require.ErrorIs(t, err, ErrUnavailable)
		_, err = NewCompressor(5, 22)
		require.ErrorIs(t, err, ErrUnavailable)
		t.Skip("built without cgo")
	}
}

func TestSuite(t *testing.T) {
	skipUnlessAvailable(t)
	nativetest.Run(t, codec())
}

func TestOptions(t *testing.T) {
	for _, o := range [][2]int{{-1, 22}, {12, 22}, {5, 9}, {5, 25}} {
		_, err := NewCompressor(o[0], o[1])
		require.ErrorIs(t, err, ErrOption, "%v", o)
	}
}

func TestMaxCompressedSize(t *testing.T) {
	for n, want := range map[int]int{0: 2, 1: 7, 16383: 16389, 16384: 16394, 1 << 20: 1<<20 + 256 + 6} {
		require.Equal(t, want, MaxCompressedSize(n), "n=%d", n)
	}
}

// TestIncompressibleFitsBound checks that random input at every quality
// stays within MaxCompressedSize with an exactly-sized dst.
func TestIncompressibleFitsBound(t *testing.T) {
	skipUnlessAvailable(t)
	for q := MinQuality; q <= MaxQuality; q++ {
		c, err := NewCompressor(q, 18)
		require.NoError(t, err)
		for _, n := range []int{1, 100, 16384, 100000} {
			src := nativetest.RandomBytes(n, uint64(q))
			dst := nativetest.WithCanary(nil, MaxCompressedSize(n))
			z, err := c.Compress(dst, src)
			require.NoError(t, err)
			require.Same(t, &dst[:1][0], &z[0])
			require.True(t, nativetest.CanaryIntact(dst))
		}
		require.NoError(t, c.Close())
	}
}
