//go:build cgo

package brotli

import (
	"bytes"
	"testing"

	"github.com/google/brotli/go/cbrotli"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/native/brotli/internal/brotlic"
	"github.com/pqcodec/pqcodec/native/internal/nativetest"
)

func TestMaxCompressedSizeMatchesLibrary(t *testing.T) {
	for n := 0; n < 64<<20; n += 1 + n/7 {
		require.Equal(t, brotlic.MaxCompressedSize(n), MaxCompressedSize(n), "n=%d", n)
	}
}

// TestOracle cross-decodes with github.com/google/brotli/go/cbrotli (its
// streaming Writer and Reader) in both directions.
func TestOracle(t *testing.T) {
	dec, err := NewDecompressor()
	require.NoError(t, err)
	defer dec.Close()
	for _, o := range []cbrotli.WriterOptions{{Quality: 1, LGWin: 16}, {Quality: 6, LGWin: 22}, {Quality: 11, LGWin: 24}} {
		comp, err := NewCompressor(o.Quality, o.LGWin)
		require.NoError(t, err)
		for _, kind := range nativetest.Kinds {
			for _, n := range nativetest.OracleSizes() {
				if o.Quality == 11 && n > 64<<10 {
					continue // quality 11 runs at about 1 MB/s; the suite covers it at 1 MiB
				}
				src := nativetest.Gen(kind, n, 41)
				ours, err := comp.Compress(nil, src)
				require.NoError(t, err)
				got, err := cbrotli.Decode(ours)
				require.NoError(t, err)
				require.True(t, bytes.Equal(src, got), "cbrotli decoding ours, %v %s %d", o, kind, n)

				theirs, err := cbrotli.Encode(src, o)
				require.NoError(t, err)
				got, err = dec.Decompress(make([]byte, 0, n), theirs)
				require.NoError(t, err)
				require.True(t, bytes.Equal(src, got), "ours decoding cbrotli, %v %s %d", o, kind, n)
			}
		}
		require.NoError(t, comp.Close())
	}
}
