package lzo

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/native/internal/nativetest"
)

func codec() nativetest.Codec {
	level := func(l int) func() (nativetest.Compressor, error) {
		return func() (nativetest.Compressor, error) { return NewCompressor(l) }
	}
	return nativetest.Codec{
		NewCompressor:   level(Level1),
		Levels:          map[string]func() (nativetest.Compressor, error){"999": level(Level999)},
		NewDecompressor: func() (nativetest.Decompressor, error) { return NewDecompressor() },
		CompressBound:   CompressBound,
		ErrCorrupt:      ErrCorrupt,
		ErrDstTooSmall:  ErrDstTooSmall,
		ErrClosed:       ErrClosed,
		Invalid: map[string][]byte{
			"empty":             {},
			"no end marker":     {0x12, 'a'},
			"end marker cut":    {0x11, 0x00},
			"trailing bytes":    {0x11, 0x00, 0x00, 0x00},
			"lookbehind":        {0x00, 0x00, 0x00, 0x00, 0x00, 0x20, 0xff, 0xff, 0x11, 0x00, 0x00},
			"literal overrun":   {0x20, 'a', 'b'},
			"text":              []byte("this is not lzo data"),
			"back-ref at start": {0x01, 0x11, 0x00, 0x00},
		},
		TruncationsDetected: true,
	}
}

// skipUnlessAvailable has a twin in the tests of each other native package
// (brotli, deflate, zstd): each checks its own constructors and sentinel.
func skipUnlessAvailable(t testing.TB) {
	t.Helper()
	if !Available {
		_, err := NewDecompressor()
		require.ErrorIs(t, err, ErrUnavailable)
		_, err = NewCompressor(Level1)
		require.ErrorIs(t, err, ErrUnavailable)
		t.Skip("built without liblzo2 (no cgo, or -tags nolzo)")
	}
}

func TestSuite(t *testing.T) {
	skipUnlessAvailable(t)
	nativetest.Run(t, codec())
}

func TestLevel(t *testing.T) {
	for _, l := range []int{0, 2, 9, 998, 1000} {
		_, err := NewCompressor(l)
		require.ErrorIs(t, err, ErrLevel, "level %d", l)
	}
}

func TestCompressBound(t *testing.T) {
	for n, want := range map[int]int{0: 67, 16: 84, 1 << 20: 1<<20 + 1<<16 + 67} {
		require.Equal(t, want, CompressBound(n), "n=%d", n)
	}
}

// TestEmptyStream pins the encoding of empty input: the bare end marker.
func TestEmptyStream(t *testing.T) {
	skipUnlessAvailable(t)
	c, err := NewCompressor(Level1)
	require.NoError(t, err)
	defer c.Close()
	z, err := c.Compress(nil, nil)
	require.NoError(t, err)
	require.Equal(t, []byte{0x11, 0x00, 0x00}, z)
}
