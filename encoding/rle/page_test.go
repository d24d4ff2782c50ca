package rle

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPageRuns decodes streams of every width and run shape the page
// routines distinguish (1- to 3-byte headers, zero-length runs, runs cut by
// the count, bit-packed runs of 1 to 70 groups, RLE runs of 1 to 20000
// values, the last run of the page ending anywhere) with the whole-page
// decoders and checks them against the streaming Decoder, which uses
// neither the assembly nor the page loops; the index decoder must fail
// exactly when a value is above its limit.
func TestPageRuns(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 1))
	for width := uint(1); width <= 32; width++ {
		for round := range 12 {
			var src []byte
			total := 0
			lim := uint64(1)<<width - 1
			if round%3 == 0 {
				lim = min(lim, 5) // clustered small values
			}
			val := func() uint64 { return r.Uint64N(lim + 1) }
			for range 1 + r.IntN(60) {
				switch r.IntN(6) {
				case 0: // bit-packed
					g := 1 + r.IntN(70)
					if r.IntN(8) == 0 {
						g = 0
					}
					src = binary.AppendUvarint(src, uint64(g)<<1|1)
					var acc uint64
					var nacc uint
					for range 8 * g {
						acc |= val() << nacc
						nacc += width
						for nacc >= 8 {
							src = append(src, byte(acc))
							acc >>= 8
							nacc -= 8
						}
					}
					total += 8 * g
				default: // RLE
					k := 1 + r.IntN(40)
					switch r.IntN(8) {
					case 0:
						k = 0
					case 1:
						k = 200 + r.IntN(20000>>(round%3*3))
					}
					src = binary.AppendUvarint(src, uint64(k)<<1)
					v := val()
					for i := uint(0); i < width; i += 8 {
						src = append(src, byte(v>>i))
					}
					total += k
				}
			}
			// Counts that cut the last run, end on it, or cut earlier ones.
			for _, count := range []int{total, max(total-1-r.IntN(9), 0), r.IntN(total + 1)} {
				var d Decoder
				require.NoError(t, d.Reset(src, width, count))
				want := make([]uint32, count)
				n := 0
				for n < count {
					k, err := d.Decode(want[n:])
					require.NoError(t, err, "width %d round %d", width, round)
					n += k
				}
				got, err := DecodeIndices(make([]uint32, 0, count), src, width, count, ^uint32(0))
				require.NoError(t, err)
				require.Equal(t, want, got, "width %d round %d count %d", width, round, count)
				top := uint32(0)
				for _, v := range want {
					top = max(top, v)
				}
				if top > 0 {
					_, err = DecodeIndices(make([]uint32, 0, count), src, width, count, top-1)
					require.ErrorIs(t, err, ErrCorrupt)
				}
				_, err = DecodeIndices(make([]uint32, 0, count), src, width, count, top)
				require.NoError(t, err)
				if width <= 8 {
					b, err := DecodeLevels(make([]uint8, 0, count), src, width, count)
					require.NoError(t, err)
					s, err := DecodeLevels(make([]int16, 0, count), src, width, count)
					require.NoError(t, err)
					b32, s32 := make([]uint32, count), make([]uint32, count)
					for i := range want {
						b32[i], s32[i] = uint32(b[i]), uint32(s[i])
					}
					require.Equal(t, want, b32, "width %d round %d count %d", width, round, count)
					require.Equal(t, want, s32, "width %d round %d count %d", width, round, count)
				}
			}
		}
	}
}
