package lz4

import (
	"bytes"
	"testing"

	pierrec "github.com/pierrec/lz4/v4"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/native/internal/nativetest"
)

func codec() nativetest.Codec {
	level := func(l int) func() (nativetest.Compressor, error) {
		return func() (nativetest.Compressor, error) { return NewCompressor(l) }
	}
	return nativetest.Codec{
		NewCompressor:   level(LevelFast),
		Levels:          map[string]func() (nativetest.Compressor, error){"1": level(1), "9": level(9), "12": level(MaxLevel)},
		NewDecompressor: func() (nativetest.Decompressor, error) { return NewDecompressor() },
		CompressBound:   CompressBound,
		ErrCorrupt:      ErrCorrupt,
		ErrDstTooSmall:  ErrDstTooSmall,
		ErrClosed:       ErrClosed,
		Invalid: map[string][]byte{
			"empty":             {},
			"literals cut":      {0x30, 'a', 'b'},
			"offset cut":        {0x10, 'a', 0x01},
			"offset zero":       {0x10, 'a', 0x00, 0x00, 0x10, 'b'},
			"offset too far":    {0x10, 'a', 0x02, 0x00, 0x10, 'b'},
			"length ext cut":    {0xf0, 0xff},
			"back-ref at start": {0x00, 0x01, 0x00, 0x00},
		},
		// A block cut right after a literal run is a valid shorter block.
		TruncationsDetected: false,
	}
}

// skipUnlessAvailable has a twin in the tests of each other native package
// (brotli, deflate, lzo, zstd): each checks its own constructors and sentinel.
func skipUnlessAvailable(t testing.TB) {
	t.Helper()
	if !Available {
		_, err := NewDecompressor()
		require.ErrorIs(t, err, ErrUnavailable)
		_, err = NewCompressor(LevelFast)
		require.ErrorIs(t, err, ErrUnavailable)
		t.Skip("built without liblz4 (no cgo)")
	}
}

func TestSuite(t *testing.T) {
	skipUnlessAvailable(t)
	nativetest.Run(t, codec())
}

func TestLevel(t *testing.T) {
	for _, l := range []int{-1, MaxLevel + 1, 999} {
		_, err := NewCompressor(l)
		require.ErrorIs(t, err, ErrLevel, "level %d", l)
	}
}

func TestCompressBound(t *testing.T) {
	for n := 0; n < 1<<20; n += 1 + n/3 {
		require.Equal(t, pierrec.CompressBlockBound(n), CompressBound(n), "n=%d", n)
	}
}

// TestEmptyStream pins the encoding of empty input: one token with no
// literals, at every level.
func TestEmptyStream(t *testing.T) {
	skipUnlessAvailable(t)
	for _, l := range []int{LevelFast, 1, 9, MaxLevel} {
		c, err := NewCompressor(l)
		require.NoError(t, err)
		z, err := c.Compress(nil, nil)
		require.NoError(t, err)
		require.Equal(t, []byte{0x00}, z, "level %d", l)
		require.NoError(t, c.Close())
	}
}

// TestOracle cross-checks both directions against pierrec/lz4, the pure-Go
// implementation of CGO_ENABLED=0 builds: blocks of each decode to the same
// bytes with the other.
func TestOracle(t *testing.T) {
	skipUnlessAvailable(t)
	dec, err := NewDecompressor()
	require.NoError(t, err)
	for _, l := range []int{LevelFast, 1, 9, MaxLevel} {
		comp, err := NewCompressor(l)
		require.NoError(t, err)
		for _, kind := range nativetest.Kinds {
			for _, n := range []int{1, 13, 100, 4096, 64 << 10, 1 << 20} {
				src := nativetest.Gen(kind, n, uint64(n+l))
				z, err := comp.Compress(nil, src)
				require.NoError(t, err)
				got := make([]byte, n)
				k, err := pierrec.UncompressBlock(z, got)
				require.NoError(t, err, "level %d %s %d", l, kind, n)
				require.True(t, bytes.Equal(src, got[:k]), "level %d %s %d", l, kind, n)
				m, ok := DecodedLen(z)
				require.True(t, ok)
				require.Equal(t, n, m)

				pz := make([]byte, pierrec.CompressBlockBound(n))
				pk, err := pierrec.CompressBlockHC(src, pz, pierrec.CompressionLevel(l), nil, nil)
				require.NoError(t, err)
				if pk == 0 { // incompressible: pierrec leaves the block to the caller
					continue
				}
				out, err := dec.Decompress(make([]byte, 0, n), pz[:pk])
				require.NoError(t, err, "level %d %s %d", l, kind, n)
				require.True(t, bytes.Equal(src, out))
			}
		}
		require.NoError(t, comp.Close())
	}
}

// TestRoomCapped checks that the room given to liblz4 is capped at what src
// can decode to: a huge spare capacity is fine, and a block is still
// decoded whole.
func TestRoomCapped(t *testing.T) {
	skipUnlessAvailable(t)
	dec, err := NewDecompressor()
	require.NoError(t, err)
	// One literal 'x', a match of 15+255+0+4 bytes, five literals: 280
	// bytes from 12.
	z := []byte{0x1f, 'x', 0x01, 0x00, 0xff, 0x00, 0x50, 'a', 'b', 'c', 'd', 'e'}
	got, err := dec.Decompress(make([]byte, 0, 1<<20), z)
	require.NoError(t, err)
	require.Equal(t, append(bytes.Repeat([]byte{'x'}, 1+15+255+4), "abcde"...), got)
	// Exactly the room the block needs, and one byte less.
	got, err = dec.Decompress(make([]byte, 0, 280), z)
	require.NoError(t, err)
	require.Len(t, got, 280)
	_, err = dec.Decompress(make([]byte, 0, 279), z)
	require.ErrorIs(t, err, ErrDstTooSmall)
}

// TestLongRuns checks the scan's lengths of long literal runs and matches
// (extension bytes of 255 taken eight at a time) against DecodedLen and
// pierrec/lz4, whole and cut at every byte: a cut block is a shorter valid
// block only where it ends right after a literal run, and is otherwise
// corrupt, never read past.
func TestLongRuns(t *testing.T) {
	skipUnlessAvailable(t)
	dec, err := NewDecompressor()
	require.NoError(t, err)
	ext := func(b []byte, v int) []byte {
		for ; v >= 255; v -= 255 {
			b = append(b, 255)
		}
		return append(b, byte(v))
	}
	for _, lit := range []int{15, 15 + 254, 15 + 255, 15 + 8*255, 15 + 8*255 + 7, 15 + 16*255, 3000} {
		for _, ml := range []int{19, 19 + 255, 19 + 8*255, 19 + 9*255 + 1} {
			lits := nativetest.Gen(nativetest.Random, lit, uint64(lit))
			b := ext([]byte{0xff}, lit-15)
			b = append(b, lits...)
			b = append(b, 1, 0) // offset 1: a run of the last literal
			b = ext(b, ml-19)
			b = append(b, 0x50, 'a', 'b', 'c', 'd', 'e')
			n := lit + ml + 5
			got, err := dec.Decompress(make([]byte, 0, n), b)
			require.NoError(t, err, "lit %d ml %d", lit, ml)
			want := make([]byte, n)
			k, err := pierrec.UncompressBlock(b, want)
			require.NoError(t, err)
			require.Equal(t, want[:k], got)
			m, ok := DecodedLen(b)
			require.True(t, ok)
			require.Equal(t, n, m)
			for cut := range len(b) {
				out, err := dec.Decompress(make([]byte, 0, n), b[:cut])
				m, ok := DecodedLen(b[:cut])
				if err == nil {
					require.True(t, ok, "cut %d", cut)
					require.Equal(t, m, len(out), "cut %d", cut)
					require.Equal(t, want[:len(out)], out, "cut %d", cut)
				} else {
					require.ErrorIs(t, err, ErrCorrupt, "cut %d", cut)
				}
			}
		}
	}
}
