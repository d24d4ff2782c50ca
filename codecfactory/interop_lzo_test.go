package codecfactory

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/internal/lzo"
	nlzo "github.com/pqcodec/pqcodec/native/lzo"
)

// TestInteropLzo checks pqcodec's pure-Go LZO1X decoder against liblzo2:
// blocks from both liblzo2 compressors (LZO1X-1 and LZO1X-999) over random
// and Parquet-shaped data must decode to the same bytes, directly and as
// Hadoop-framed pages through a pure-Go Factory.
func TestInteropLzo(t *testing.T) {
	if !nlzo.Available {
		t.Skip("liblzo2 not in this build (no cgo, or -tags nolzo)")
	}
	pure, err := New(WithPureGo(true))
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(1, 2))
	inputs := [][]byte{{}, {1}, []byte("abcabcabcabcabc")}
	sizes := []int{100, 5000, 70_000, 300_000}
	if raceEnabled {
		sizes = sizes[:3]
	}
	for _, n := range sizes {
		random := make([]byte, n)
		for i := range random {
			random[i] = byte(r.Uint32())
		}
		inputs = append(inputs, random)
		// Runs of random length: long matches at short distances.
		runs := make([]byte, 0, n)
		for len(runs) < n {
			runs = append(runs, bytes.Repeat([]byte{byte(r.IntN(4))}, 1+r.IntN(600))...)
		}
		inputs = append(inputs, runs[:n])
		for i, d := range datasets {
			if n <= 5000 || i%3 == 0 {
				inputs = append(inputs, genData(d, n, uint64(i)))
			}
		}
	}
	for _, level := range []int{1, 999} {
		c, err := nlzo.NewCompressor(level)
		require.NoError(t, err)
		native, err := New(WithLzoLevel(level))
		require.NoError(t, err)
		for i, src := range inputs {
			block, err := c.Compress(nil, src)
			require.NoError(t, err)
			out, err := lzo.Decompress(make([]byte, 0, len(src)), block)
			require.NoError(t, err, "level %d input %d", level, i)
			require.True(t, bytes.Equal(src, out), "level %d input %d", level, i)
			if len(src) > 0 {
				_, err = lzo.Decompress(make([]byte, 0, len(src)-1), block)
				require.ErrorIs(t, err, lzo.ErrDstTooSmall)
			}
			page, err := native.Compress(Lzo, nil, src)
			require.NoError(t, err)
			out, err = pure.Decompress(Lzo, nil, page, len(src))
			require.NoError(t, err, "level %d input %d", level, i)
			require.True(t, bytes.Equal(src, out))
		}
	}
}
