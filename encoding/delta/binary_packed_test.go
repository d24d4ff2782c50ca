package delta

import (
	"encoding/binary"
	"io"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pqcodec/pqcodec/internal/testalloc"
	"github.com/stretchr/testify/require"
)

// counts exercises pages that are and are not multiples of 8, 32 and 128.
var counts = []int{0, 1, 2, 3, 7, 8, 9, 31, 32, 33, 34, 127, 128, 129, 130, 200, 255, 256, 257, 1000, 4097}

func int64Patterns(r *rand.Rand, n int) map[string][]int64 {
	p := map[string][]int64{}
	gen := func(name string, f func(i int) int64) {
		v := make([]int64, n)
		for i := range v {
			v[i] = f(i)
		}
		p[name] = v
	}
	gen("extremes", func(i int) int64 {
		if i%2 == 0 {
			return math.MinInt64
		}
		return math.MaxInt64
	})
	gen("constant", func(int) int64 { return -42 })
	gen("random", func(int) int64 { return int64(r.Uint64()) })
	gen("ascending", func(i int) int64 { return 1_700_000_000_000 + int64(i)*1000 + int64(r.IntN(10)) })
	gen("descending", func(i int) int64 { return -int64(i) * 3 })
	gen("mixed", func(i int) int64 {
		switch r.IntN(4) {
		case 0:
			return math.MaxInt64
		case 1:
			return math.MinInt64
		default:
			return int64(r.IntN(100))
		}
	})
	return p
}

func TestRoundTripInt64(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range counts {
		for name, v := range int64Patterns(r, n) {
			enc := EncodeInt64([]byte("prefix"), v)
			require.Equal(t, "prefix", string(enc[:6]))
			got, err := DecodeInt64([]int64{99}, enc[6:])
			require.NoError(t, err, "%s n=%d", name, n)
			require.Equal(t, append([]int64{99}, v...), got, "%s n=%d", name, n)
			checkWidths(t, enc[6:], 64)
			checkPieces(t, v, enc[6:], r)
		}
	}
}

func TestRoundTripInt32(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range counts {
		for name, v64 := range int64Patterns(r, n) {
			v := make([]int32, n)
			for i, x := range v64 {
				v[i] = int32(x ^ x>>32)
			}
			enc := EncodeInt32(nil, v)
			got, err := DecodeInt32(nil, enc)
			require.NoError(t, err, "%s n=%d", name, n)
			require.Equal(t, v, append([]int32{}, got...), "%s n=%d", name, n)
			checkWidths(t, enc, 32)
			checkPieces(t, v, enc, r)
		}
	}
}

// checkWidths checks that no miniblock of a page written by the encoder is
// wider than the type.
func checkWidths(t *testing.T, page []byte, max byte) {
	t.Helper()
	d := Decoder[int64]{}
	require.NoError(t, d.Reset(page))
	if d.hdr.total > 0 {
		d.started, d.remaining = true, d.hdr.total-1
	}
	for d.remaining > 0 {
		require.NoError(t, d.nextMiniblock())
		require.LessOrEqual(t, d.width, uint(max))
		d.pos += d.chunks * 4 * int(d.width)
		d.remaining = max2(0, d.remaining-d.hdr.miniSize)
		d.chunks = 0
	}
}

func max2(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// checkPieces decodes page through a Decoder in random pieces; the twin of
// bytestreamsplit's TestDecoderPieces loop.
func checkPieces[T Integer](t *testing.T, want []T, page []byte, r *rand.Rand) {
	t.Helper()
	var d Decoder[T]
	require.NoError(t, d.Reset(page))
	require.Equal(t, len(want), d.Remaining())
	got := []T{}
	buf := make([]T, 100)
	for d.Remaining() > 0 {
		n, err := d.Decode(buf[:r.IntN(len(buf)+1)])
		require.NoError(t, err)
		got = append(got, buf[:n]...)
	}
	n, err := d.Decode(buf[:0])
	require.NoError(t, err)
	require.Zero(t, n)
	n, err = d.Decode(buf)
	require.ErrorIs(t, err, io.EOF)
	require.Zero(t, n)
	require.Equal(t, want, got)
}

// TestSpecVector checks a page worked out by hand: values 7 5 3 1 2 3 4 5
// have deltas -2 -2 -2 1 1 1 1, min delta -2, so the first miniblock holds
// 0 0 0 3 3 3 3 at width 2.
func TestSpecVector(t *testing.T) {
	page := []byte{
		0x80, 0x01, // block size 128
		0x04,       // 4 miniblocks
		0x08,       // 8 values
		0x0e,       // first value 7, zig-zag
		0x03,       // min delta -2, zig-zag
		2, 0, 0, 0, // widths
		0xc0, 0x3f, 0, 0, 0, 0, 0, 0, // 32 values of 2 bits
	}
	want := []int32{7, 5, 3, 1, 2, 3, 4, 5}
	require.Equal(t, page, EncodeInt32(nil, want))
	got, err := DecodeInt32(nil, page)
	require.NoError(t, err)
	require.Equal(t, want, got)
	got64, err := DecodeInt64(nil, page)
	require.NoError(t, err)
	require.Equal(t, []int64{7, 5, 3, 1, 2, 3, 4, 5}, got64)
}

// page builds a DELTA_BINARY_PACKED page by hand from header fields and
// blocks.
func page(blockSize, miniblocks, total uint64, first int64, blocks ...[]byte) []byte {
	b := binary.AppendUvarint(nil, blockSize)
	b = binary.AppendUvarint(b, miniblocks)
	b = binary.AppendUvarint(b, total)
	b = binary.AppendVarint(b, first)
	for _, blk := range blocks {
		b = append(b, blk...)
	}
	return b
}

func block(minDelta int64, widths []byte, data ...byte) []byte {
	b := binary.AppendVarint(nil, minDelta)
	b = append(b, widths...)
	return append(b, data...)
}

// TestInt32WideMinDelta decodes an INT32 page whose writer computed deltas
// in 64 bits: MaxInt32 -> MinInt32 is a delta of -(2^32-1), which wraps to 1.
func TestInt32WideMinDelta(t *testing.T) {
	p := page(128, 4, 3, math.MaxInt32,
		block(-(1<<32-1), []byte{1, 0, 0, 0}, 0b10, 0, 0, 0))
	got, err := DecodeInt32(nil, p)
	require.NoError(t, err)
	// MaxInt32, then +1 (wraps to MinInt32), then +1+1.
	require.Equal(t, []int32{math.MaxInt32, math.MinInt32, math.MinInt32 + 2}, got)
}

// TestUnusedWidthsIgnored puts invalid widths in the unused miniblocks of
// the last block.
func TestUnusedWidthsIgnored(t *testing.T) {
	data := make([]byte, 4*3)
	data[0] = 0b001_010_011 & 0xff
	p := page(128, 4, 4, 10, block(1, []byte{3, 0xff, 200, 99}, data...))
	got, err := DecodeInt64(nil, p)
	require.NoError(t, err)
	require.Equal(t, []int64{10, 14, 17, 19}, got) // deltas 3, 2, 1 (bit 8 of the third is not in data[0])
	var d Decoder[int64]
	require.NoError(t, d.Reset(p))
	require.NoError(t, d.skip())
	require.Equal(t, len(p), d.End())
}

// TestMiniblockSizes decodes blocks split into 1, 2 and 8 miniblocks and a
// block size of 256.
func TestMiniblockSizes(t *testing.T) {
	for _, shape := range []struct{ bs, mc uint64 }{{128, 1}, {128, 2}, {256, 8}, {256, 2}, {1024, 4}} {
		n := 300
		// Deltas of 1 with a zero width: min delta 1 carries everything.
		var blocks [][]byte
		for left := n - 1; left > 0; left -= int(shape.bs) {
			blocks = append(blocks, block(1, make([]byte, shape.mc)))
		}
		p := page(shape.bs, shape.mc, uint64(n), 5, blocks...)
		got, err := DecodeInt32(nil, p)
		require.NoError(t, err, "%+v", shape)
		require.Len(t, got, n)
		for i, v := range got {
			require.Equal(t, int32(5+i), v)
		}
	}
}

func TestHeaderErrors(t *testing.T) {
	for name, p := range map[string][]byte{
		"empty":              nil,
		"block size only":    {0x80, 0x01},
		"no first value":     {0x80, 0x01, 4, 1},
		"block size 0":       page(0, 1, 1, 0),
		"block size 100":     page(100, 1, 1, 0),
		"block size 129":     page(129, 1, 1, 0),
		"block size too big": page(1<<20, 4, 1, 0),
		"no miniblocks":      page(128, 0, 1, 0),
		"3 miniblocks":       page(128, 3, 1, 0),
		"8 miniblocks":       page(128, 8, 1, 0), // 16 values each
		"count overflow":     page(128, 4, 1<<31, 0),
		"count vs input":     page(128, 4, 1<<31-1, 0, block(0, []byte{0, 0, 0, 0})),
		"uvarint overflow":   {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01},
		"missing block":      page(128, 4, 2, 0),
		"missing widths":     page(128, 4, 2, 0, []byte{0}),
		"missing data":       page(128, 4, 2, 0, block(0, []byte{8, 0, 0, 0})),
		"width 65 int32":     page(128, 4, 2, 0, block(0, []byte{65, 0, 0, 0}, make([]byte, 4*65)...)),
		"truncated 2nd":      page(128, 1, 200, 0, block(0, []byte{0})),
		"truncated min":      page(128, 1, 200, 0, block(0, []byte{0}), []byte{0x80, 0x80}),
	} {
		dst := []int32{1, 2}
		got, err := DecodeInt32(dst, p)
		require.ErrorIs(t, err, ErrCorrupt, name)
		require.Equal(t, []int32{1, 2}, got, name)
		var d Decoder[int32]
		if err := d.Reset(p); err != nil {
			require.ErrorIs(t, err, ErrCorrupt, name)
			_, err = d.Decode(make([]int32, 300))
			require.ErrorIs(t, err, io.EOF, name+" (empty after Reset)")
			continue
		}
		_, err = d.Decode(make([]int32, 300))
		require.ErrorIs(t, err, ErrCorrupt, name)
		_, err = d.Decode(make([]int32, 300))
		require.ErrorIs(t, err, ErrCorrupt, name+" (sticky)")
	}
	_, err := DecodeInt64(nil, page(128, 4, 2, 0, block(0, []byte{65, 0, 0, 0}, make([]byte, 4*65)...)))
	require.ErrorIs(t, err, ErrCorrupt)
	got, err := DecodeInt64(nil, page(128, 4, 2, 0, block(0, []byte{64, 0, 0, 0}, make([]byte, 4*64)...)))
	require.NoError(t, err)
	require.Equal(t, []int64{0, 0}, got)
}

// TestTruncation cuts valid pages at every length: decoding either fails or,
// when only padding of the last miniblock was cut, returns the right values.
func TestTruncation(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 2, 33, 129, 300} {
		v := int64Patterns(r, n)["random"]
		enc := EncodeInt64(nil, v)
		for cut := range len(enc) {
			got, err := DecodeInt64(nil, enc[:cut])
			if err != nil {
				require.ErrorIs(t, err, ErrCorrupt)
				continue
			}
			require.Equal(t, v, got, "n=%d cut=%d", n, cut)
		}
	}
}

// TestHugeCountNoAlloc checks that a short page declaring many values fails
// without allocating for them.
func TestHugeCountNoAlloc(t *testing.T) {
	p := page(128, 4, 1<<31-1, 0, block(0, make([]byte, 4)))
	_, err := DecodeInt64(nil, p)
	require.ErrorIs(t, err, ErrCorrupt)
	// 2^31 values would take 16 GiB; this test saw under 1 KB per call.
	// The bytes are averaged over 20 calls: MemStats counts the whole
	// process, so one call's delta can hold the runtime's own allocations.
	perCall := testalloc.BytesPerRun(20, func() { _, _ = DecodeInt64(nil, p) })
	t.Logf("%.0f bytes per call", perCall)
	require.Less(t, perCall, float64(1<<20))
}

func TestDecodeAllocs(t *testing.T) {
	v := make([]int64, 10000)
	for i := range v {
		v[i] = int64(i * i)
	}
	enc := EncodeInt64(nil, v)
	dst := make([]int64, 0, len(v))
	allocs := testing.AllocsPerRun(20, func() {
		var err error
		if dst, err = DecodeInt64(dst[:0], enc); err != nil {
			t.Fatal(err)
		}
	})
	require.Zero(t, allocs)
	out := make([]byte, 0, 2*len(enc))
	allocs = testing.AllocsPerRun(20, func() { out = EncodeInt64(out[:0], v) })
	require.Zero(t, allocs)
	var d Decoder[int64]
	allocs = testing.AllocsPerRun(20, func() {
		_ = d.Reset(enc)
		for d.Remaining() > 0 {
			if _, err := d.Decode(dst[:100]); err != nil {
				t.Fatal(err)
			}
		}
	})
	require.Zero(t, allocs)
}
