package codecfactory

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCanCompress checks CanCompress against what Compress does, in the
// default and the pure-Go factory.
func TestCanCompress(t *testing.T) {
	for _, nf := range testFactories(t) {
		for c := Codec(-1); c <= Lz4Raw+1; c++ {
			_, err := nf.f.Compress(c, nil, []byte("probe"))
			require.Equal(t, nf.f.CanCompress(c), err == nil, "%s %v: %v", nf.name, c, err)
			if c.Valid() && !nf.f.CanCompress(c) {
				require.True(t, errors.Is(err, ErrUnavailable), "%s %v: %v", nf.name, c, err)
			}
		}
	}
}

// TestWithLevel checks that WithLevel is the per-codec option for every
// codec with levels (a level out of range fails as that option does) and
// an error for UNCOMPRESSED.
func TestWithLevel(t *testing.T) {
	for _, c := range []struct {
		codec     Codec
		good, bad int
	}{{Zstd, 9, 99}, {Gzip, 9, 99}, {Brotli, 5, 99}, {Lzo, 1, 99}, {Lz4, 9, 99}, {Lz4Raw, 1, 99}, {Snappy, 2, 99}} {
		require.True(t, HasLevels(c.codec))
		f, err := New(WithLevel(c.codec, c.good))
		require.NoError(t, err, c.codec)
		require.NoError(t, f.Close())
		_, err = New(WithLevel(c.codec, c.bad))
		require.ErrorIs(t, err, ErrOption, c.codec)
	}
	require.False(t, HasLevels(Uncompressed))
	_, err := New(WithLevel(Uncompressed, 1))
	require.ErrorIs(t, err, ErrOption)
}
