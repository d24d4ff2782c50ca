package delta

import (
	"encoding/binary"
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/pqcodec/pqcodec/internal/bitpack"
	"github.com/stretchr/testify/require"
)

// encodeWide encodes v as a writer that computes INT32 deltas in 64 bits
// does (DuckDB): the deltas and their minimum are int64, so a miniblock of
// full-range values needs up to 33 bits, and more when minWidth asks for it
// (a writer may use any width at least the needed one). The last
// miniblock is zero-padded, miniblocks past the last delta have width 0.
func encodeWide(v []int32, blockSize, miniCount int, minWidth uint) []byte {
	var out []byte
	out = binary.AppendUvarint(out, uint64(blockSize))
	out = binary.AppendUvarint(out, uint64(miniCount))
	out = binary.AppendUvarint(out, uint64(len(v)))
	first := int64(0)
	if len(v) > 0 {
		first = int64(v[0])
	}
	out = binary.AppendVarint(out, first)
	miniSize := blockSize / miniCount
	for i := 1; i < len(v); i += blockSize {
		var deltas []int64
		for j := i; j < min(i+blockSize, len(v)); j++ {
			deltas = append(deltas, int64(v[j])-int64(v[j-1]))
		}
		lo := deltas[0]
		for _, d := range deltas {
			lo = min(lo, d)
		}
		out = binary.AppendVarint(out, lo)
		widths := make([]byte, miniCount)
		var bodies []byte
		for mb := range miniCount {
			if mb*miniSize >= len(deltas) {
				continue
			}
			packed := make([]uint64, miniSize)
			w := minWidth
			for j := range packed {
				if k := mb*miniSize + j; k < len(deltas) {
					packed[j] = uint64(deltas[k] - lo)
				}
				w = max(w, uint(bits.Len64(packed[j])))
			}
			widths[mb] = byte(w)
			for c := 0; c < miniSize; c += 32 {
				body := make([]byte, 4*w)
				bitpack.Pack64(body, (*[32]uint64)(packed[c:c+32]), w)
				bodies = append(bodies, body...)
			}
		}
		out = append(append(out, widths...), bodies...)
	}
	return out
}

// TestInt32WideMiniblocks decodes INT32 pages whose miniblocks are 33 to 64
// bits wide, as writers computing deltas in 64 bits make them: the values
// come out exact, through the whole-page decoder and the piecewise one.
func TestInt32WideMiniblocks(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 33))
	extremes := make([]int32, 1000)
	for i := range extremes {
		extremes[i] = math.MinInt32
		if i%2 == 1 {
			extremes[i] = math.MaxInt32
		}
	}
	random := make([]int32, 1000)
	for i := range random {
		random[i] = int32(r.Uint32())
	}
	mixed := make([]int32, 700) // narrow and wide miniblocks in one block
	for i := range mixed {
		mixed[i] = int32(i)
		if i >= 64 && i < 160 || i > 600 {
			mixed[i] = int32(r.Uint32())
		}
	}
	for name, v := range map[string][]int32{"alternating extremes": extremes, "random": random, "mixed": mixed} {
		for _, shape := range [][2]int{{128, 4}, {2048, 64}, {256, 2}} {
			for _, minWidth := range []uint{0, 33, 47, 64} {
				if minWidth == 0 && name != "mixed" {
					// The first miniblock needs 33 bits (deltas of ±(2^32-1)).
					page := encodeWide(v, shape[0], shape[1], 0)
					_, pos, err := parseHeader(page)
					require.NoError(t, err)
					_, pos, err = zigzag(page, pos, "min delta")
					require.NoError(t, err)
					require.Equal(t, byte(33), page[pos], "%s %v", name, shape)
				}
				for _, n := range []int{len(v), 1, 2, 33, 129, 300} {
					n = min(n, len(v))
					p := encodeWide(v[:n], shape[0], shape[1], minWidth)
					got, err := DecodeInt32(nil, p)
					require.NoError(t, err, "%s %v width>=%d n=%d", name, shape, minWidth, n)
					require.Equal(t, v[:n], got, "%s %v width>=%d n=%d", name, shape, minWidth, n)
					checkPieces(t, v[:n], p, r)
					// Read as INT64, the same stream gives the 64-bit sums,
					// whose low 32 bits are the values.
					got64, err := DecodeInt64(nil, p)
					require.NoError(t, err)
					for i := range got64 {
						require.Equal(t, v[i], int32(got64[i]))
					}
				}
			}
		}
	}
}

// TestLengthsWideMiniblocks decodes DELTA_LENGTH_BYTE_ARRAY and
// DELTA_BYTE_ARRAY pages whose length streams use miniblocks wider than 32
// bits.
func TestLengthsWideMiniblocks(t *testing.T) {
	strs := []string{"", "a", "ab", "abc", "abd", "b", "hello", "hello world", ""}
	for range 60 {
		strs = append(strs, strs[len(strs)%9]+"x")
	}
	values, offsets := flat(strs)
	lens := make([]int32, len(strs))
	for i := range lens {
		lens[i] = offsets[i+1] - offsets[i]
	}
	page := append(encodeWide(lens, 128, 4, 40), values...)
	gv, goff, err := DecodeLengthByteArray(nil, nil, page)
	require.NoError(t, err)
	require.Equal(t, values, gv)
	require.Equal(t, offsets, goff)

	// DELTA_BYTE_ARRAY: prefix lengths against the previous value, then
	// suffix lengths, then the suffixes.
	pre := make([]int32, len(strs))
	suf := make([]int32, len(strs))
	var suffixes []byte
	for i, s := range strs {
		if i > 0 {
			p := strs[i-1]
			for int(pre[i]) < min(len(p), len(s)) && p[pre[i]] == s[pre[i]] {
				pre[i]++
			}
		}
		suf[i] = int32(len(s)) - pre[i]
		suffixes = append(suffixes, s[pre[i]:]...)
	}
	dba := append(append(encodeWide(pre, 128, 4, 64), encodeWide(suf, 128, 4, 35)...), suffixes...)
	gv, goff, err = DecodeByteArray(nil, nil, dba)
	require.NoError(t, err)
	require.Equal(t, values, gv)
	require.Equal(t, offsets, goff)
}
