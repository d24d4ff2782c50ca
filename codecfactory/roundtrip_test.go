package codecfactory

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/golang/snappy"
	"github.com/pierrec/lz4/v4"
	"github.com/pqcodec/pqcodec/internal/testalloc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	nzstd "github.com/pqcodec/pqcodec/native/zstd"
)

func TestCodecNames(t *testing.T) {
	for i, c := range allCodecs {
		require.Equal(t, Codec(i), c)
		p, err := Parse(c.String())
		require.NoError(t, err)
		require.Equal(t, c, p)
		txt, err := c.MarshalText()
		require.NoError(t, err)
		var u Codec
		require.NoError(t, u.UnmarshalText(txt))
		require.Equal(t, c, u)
	}
	for s, want := range map[string]Codec{
		"zstd": Zstd, "ZSTD": Zstd, "Zstandard": Zstd, "LZ4_RAW": Lz4Raw, "lz4raw": Lz4Raw, "lz4-raw": Lz4Raw,
		"lz4": Lz4, "uncompressed": Uncompressed, "none": Uncompressed, "NONE": Uncompressed, " snappy ": Snappy,
		"gzip": Gzip, "gz": Gzip, "brotli": Brotli, "lzo": Lzo,
	} {
		got, err := Parse(s)
		require.NoError(t, err, s)
		assert.Equal(t, want, got, s)
	}
	for _, s := range []string{"", "lz5", "zip", "snappy2"} {
		_, err := Parse(s)
		require.ErrorIs(t, err, ErrUnknownCodec, s)
	}
	assert.Equal(t, "Codec(9)", Codec(9).String())
	assert.Equal(t, "Codec(-1)", Codec(-1).String())
	_, err := Codec(8).MarshalText()
	require.ErrorIs(t, err, ErrUnknownCodec)
}

func TestOptions(t *testing.T) {
	for _, o := range []Option{
		WithZstdLevel(nzstd.MinLevel - 1), WithZstdLevel(nzstd.MaxLevel + 1), WithBrotli(12, 22), WithBrotli(8, 9), WithBrotli(8, 25),
		WithGzipLevel(0), WithGzipLevel(10), WithLzoLevel(2), WithMaxPageSize(0), WithMaxPageSize(1 << 31),
	} {
		_, err := New(o)
		require.ErrorIs(t, err, ErrOption)
	}
	f, err := New()
	require.NoError(t, err)
	assert.Equal(t, DefaultMaxPageSize, f.MaxPageSize())
	_, err = f.Compress(Codec(8), nil, []byte("x"))
	require.ErrorIs(t, err, ErrUnknownCodec)
	_, err = f.Decompress(Codec(-1), nil, []byte("x"), 1)
	require.ErrorIs(t, err, ErrUnknownCodec)
	assert.Equal(t, -1, f.CompressBound(Codec(8), 10))
}

// roundTrip compresses src with c and decompresses it back, checking the
// result and that prefixes in dst are kept.
func roundTrip(t *testing.T, f *Factory, c Codec, src []byte) []byte {
	t.Helper()
	comp, err := f.Compress(c, []byte("head"), src)
	require.NoError(t, err)
	require.Equal(t, "head", string(comp[:4]))
	comp = comp[4:]
	// Exact capacity: no allocation, written in place.
	dst := make([]byte, 2, 2+len(src))
	out, err := f.Decompress(c, dst, comp, len(src))
	require.NoError(t, err)
	require.Len(t, out, 2+len(src))
	require.True(t, bytes.Equal(src, out[2:]), "%v round trip differs", c)
	if len(src) > 0 {
		require.Same(t, &dst[:cap(dst)][2], &out[2], "decompressed out of place")
	}
	// Nil dst: grown once to the declared size.
	out, err = f.Decompress(c, nil, comp, len(src))
	require.NoError(t, err)
	require.True(t, bytes.Equal(src, out))
	require.Equal(t, len(src), cap(out))
	// Declared one byte short or long: ErrSizeMismatch, never truncation.
	if len(src) > 0 {
		_, err = f.Decompress(c, nil, comp, len(src)-1)
		require.ErrorIs(t, err, ErrSizeMismatch, "%v declared short", c)
	}
	_, err = f.Decompress(c, nil, comp, len(src)+1)
	require.ErrorIs(t, err, ErrSizeMismatch, "%v declared long", c)
	return comp
}

func TestRoundTrip(t *testing.T) {
	sizes := []int{0, 1, 7, 100, 4096, 65536}
	for _, nf := range testFactories(t) {
		for _, c := range allCodecs {
			if !canCompress(nf.f, c) {
				continue
			}
			t.Run(fmt.Sprintf("%s/%v", nf.name, c), func(t *testing.T) {
				for i, d := range datasets {
					for _, n := range sizes {
						if raceEnabled && n > 4096 && i%4 != 0 {
							continue // the race detector slows the pure-Go encoders tenfold
						}
						roundTrip(t, nf.f, c, genData(d, n, uint64(i)))
					}
					// Several Hadoop chunks, several zstd blocks.
					if i%4 == 0 && !raceEnabled && !testing.Short() {
						roundTrip(t, nf.f, c, genData(d, 600_000, uint64(i)))
					}
				}
			})
		}
	}
}

func TestLevels(t *testing.T) {
	src := genData(datasets[5], 50_000, 1)
	if raceEnabled {
		src = src[:10_000]
	}
	for _, opts := range [][]Option{
		{WithZstdLevel(1)}, {WithZstdLevel(19)}, {WithZstdLevel(-5)}, {WithZstdLevel(0)}, {WithBrotli(0, 10)}, {WithBrotli(11, 24)},
		{WithGzipLevel(1)}, {WithGzipLevel(9)}, {WithLzoLevel(999)},
	} {
		for _, nf := range testFactories(t, opts...) {
			for _, c := range allCodecs {
				if canCompress(nf.f, c) {
					roundTrip(t, nf.f, c, src)
				}
			}
		}
	}
}

// TestCrossMode decompresses what each mode compresses with the other mode.
func TestCrossMode(t *testing.T) {
	fs := testFactories(t)
	src := genData(datasets[0], 100_000, 3)
	for _, c := range allCodecs {
		for _, from := range fs {
			if !canCompress(from.f, c) {
				continue
			}
			comp, err := from.f.Compress(c, nil, src)
			require.NoError(t, err)
			for _, to := range fs {
				out, err := to.f.Decompress(c, nil, comp, len(src))
				require.NoError(t, err, "%v %s -> %s", c, from.name, to.name)
				require.Equal(t, src, out)
			}
		}
	}
}

func TestSizeLimits(t *testing.T) {
	for _, nf := range testFactories(t, WithMaxPageSize(1000)) {
		for _, c := range allCodecs {
			_, err := nf.f.Decompress(c, nil, []byte("whatever"), 1001)
			require.ErrorIs(t, err, ErrPageTooLarge, "%v", c)
			_, err = nf.f.Decompress(c, nil, []byte("whatever"), -1)
			require.ErrorIs(t, err, ErrCorrupt, "%v", c)
			require.NotErrorIs(t, err, ErrSizeMismatch, "%v", c)
			out, err := nf.f.Decompress(c, []byte("x"), nil, 0)
			require.NoError(t, err, "%v", c)
			require.Equal(t, "x", string(out))
			_, err = nf.f.Decompress(c, nil, nil, 10)
			require.ErrorIs(t, err, ErrSizeMismatch, "%v", c)
		}
	}
}

// TestUpFrontSizeChecks makes a small page declare a huge size: where the
// format states or bounds the real size, Decompress must refuse before
// allocating (AllocsPerRun sees no allocation even though dst is nil).
func TestUpFrontSizeChecks(t *testing.T) {
	src := genData(datasets[0], 10_000, 5)
	for _, nf := range testFactories(t) {
		for _, c := range allCodecs {
			if c == Brotli || !canCompress(nf.f, c) {
				continue // brotli states no size up front
			}
			comp, err := nf.f.Compress(c, nil, src)
			require.NoError(t, err)
			const huge = 1 << 30
			var derr error
			allocs := testing.AllocsPerRun(5, func() {
				_, derr = nf.f.Decompress(c, nil, comp, huge)
			})
			require.ErrorIs(t, derr, ErrSizeMismatch, "%s %v", nf.name, c)
			// Error formatting allocates; the gigabyte must not be among
			// them. 1 MiB a call is a thousandth of the declared size and far
			// above the error's few hundred bytes; averaged over 20 calls,
			// allocations elsewhere in the process cannot reach it.
			perCall := testalloc.BytesPerRun(20, func() { _, _ = nf.f.Decompress(c, nil, comp, huge) })
			require.Less(t, perCall, float64(1<<20), "%s %v", nf.name, c)
			require.Less(t, allocs, 20.0)
		}
	}
}

func TestCompressBound(t *testing.T) {
	for _, nf := range testFactories(t) {
		for _, c := range allCodecs {
			if !canCompress(nf.f, c) {
				continue
			}
			for _, d := range []dataset{datasets[2], datasets[4]} {
				for _, n := range []int{0, 1, 1000, 100_000} {
					src := genData(d, n, 9)
					dst := make([]byte, 0, nf.f.CompressBound(c, n))
					out, err := nf.f.Compress(c, dst, src)
					require.NoError(t, err)
					if len(out) > 0 {
						require.Same(t, &dst[:1][0], &out[0], "%s %v n=%d grew past CompressBound", nf.name, c, n)
					}
				}
			}
		}
	}
}

func TestLzoCompressUnavailableInPureGo(t *testing.T) {
	f, err := New(WithPureGo(true))
	require.NoError(t, err)
	_, err = f.Compress(Lzo, nil, []byte("abc"))
	require.ErrorIs(t, err, ErrUnavailable)
	require.True(t, errors.Is(err, ErrUnavailable))
}

func TestDecompressShared(t *testing.T) {
	f, err := New()
	require.NoError(t, err)
	src := []byte("plain page")
	out, err := f.DecompressShared(Uncompressed, nil, src, len(src))
	require.NoError(t, err)
	require.Same(t, &src[0], &out[0])
	_, err = f.DecompressShared(Uncompressed, nil, src, 3)
	require.ErrorIs(t, err, ErrSizeMismatch)
	out, err = f.DecompressShared(Uncompressed, []byte("a"), src, len(src))
	require.NoError(t, err)
	require.Equal(t, "aplain page", string(out))
	comp, err := f.Compress(Zstd, nil, src)
	require.NoError(t, err)
	out, err = f.DecompressShared(Zstd, nil, comp, len(src))
	require.NoError(t, err)
	require.Equal(t, src, out)
}

// TestOverlap checks that Compress and Decompress refuse a dst whose spare
// capacity overlaps src, before writing anything, and accept adjacent
// buffers.
func TestOverlap(t *testing.T) {
	src := genData(datasets[1], 4<<10, 3)
	for _, nf := range testFactories(t) {
		for _, c := range allCodecs {
			if !canCompress(nf.f, c) {
				continue
			}
			comp, err := nf.f.Compress(c, nil, src)
			require.NoError(t, err)
			buf := make([]byte, len(src)+nf.f.CompressBound(c, len(src)))
			copy(buf, src)
			want := bytes.Clone(buf)
			_, err = nf.f.Compress(c, buf[:0], buf[:len(src)])
			require.ErrorIs(t, err, ErrOverlap, "%v", c)
			require.Equal(t, want, buf, "%v: written before the check", c)
			out, err := nf.f.Compress(c, buf[len(src):len(src)], buf[:len(src)])
			require.NoError(t, err, "%v: adjacent buffers", c)
			require.Equal(t, comp[:0], out[:0])

			dbuf := make([]byte, len(comp)+len(src))
			copy(dbuf, comp)
			_, err = nf.f.Decompress(c, dbuf[:0], dbuf[:len(comp)], len(src))
			require.ErrorIs(t, err, ErrOverlap, "%v", c)
			got, err := nf.f.Decompress(c, dbuf[len(comp):len(comp)], dbuf[:len(comp)], len(src))
			require.NoError(t, err, "%v: adjacent buffers", c)
			require.Equal(t, src, got)
		}
	}
}

// TestLz4Levels checks WithLz4Level: every level of LZ4_RAW and Hadoop LZ4
// round-trips, LZ4_RAW blocks decode with pierrec/lz4 directly, the
// high-compression levels are smaller than the fast compressor on
// compressible pages, warm calls allocate nothing, and out-of-range levels
// are refused.
func TestLz4Levels(t *testing.T) {
	var page []byte
	for i := range 8_000 {
		page = fmt.Appendf(page, "row %d value %d;", i%977, (i*7919)%1000)
	}
	size := map[Codec]map[int]int{Lz4Raw: {}, Lz4: {}}
	for _, level := range []int{0, 1, 5, 9} {
		f, err := New(WithLz4Level(level))
		require.NoError(t, err)
		for _, c := range []Codec{Lz4Raw, Lz4} {
			out, err := f.Compress(c, nil, page)
			require.NoError(t, err)
			size[c][level] = len(out)
			back, err := f.Decompress(c, nil, out, len(page))
			require.NoError(t, err, "%v level %d", c, level)
			require.Equal(t, page, back)
			if c == Lz4Raw {
				raw := make([]byte, len(page))
				k, err := lz4.UncompressBlock(out, raw)
				require.NoError(t, err)
				require.Equal(t, page, raw[:k])
			}
			if !raceEnabled {
				dst := make([]byte, 0, f.CompressBound(c, len(page)))
				require.Zero(t, testing.AllocsPerRun(1, func() {
					if _, err := f.Compress(c, dst, page); err != nil {
						t.Fatal(err)
					}
				}), "%v level %d", c, level)
			}
		}
		require.NoError(t, f.Close())
	}
	for _, c := range []Codec{Lz4Raw, Lz4} {
		require.Less(t, size[c][9], size[c][0], "%v: level 9 smaller than the fast compressor", c)
		require.LessOrEqual(t, size[c][9], size[c][1], "%v", c)
	}
	for _, level := range []int{-1, MaxLz4Level + 1} {
		_, err := New(WithLz4Level(level))
		require.ErrorIs(t, err, ErrOption)
	}
}

// TestSnappyLevels checks WithSnappyLevel: every level round-trips, its
// blocks decode with golang/snappy directly, levels 2 and 3 are smaller
// than level 1 on a compressible page, warm calls allocate nothing, and
// out-of-range levels are refused.
func TestSnappyLevels(t *testing.T) {
	var page []byte
	for i := range 20_000 {
		page = fmt.Appendf(page, "row %d value %d;", i%977, (i*7919)%1000)
	}
	size := map[int]int{}
	for level := 1; level <= MaxSnappyLevel; level++ {
		f, err := New(WithSnappyLevel(level))
		require.NoError(t, err)
		out, err := f.Compress(Snappy, nil, page)
		require.NoError(t, err)
		size[level] = len(out)
		back, err := f.Decompress(Snappy, nil, out, len(page))
		require.NoError(t, err, "level %d", level)
		require.Equal(t, page, back)
		direct, err := snappy.Decode(nil, out)
		require.NoError(t, err, "level %d: golang/snappy", level)
		require.Equal(t, page, direct)
		if !raceEnabled {
			dst := make([]byte, 0, f.CompressBound(Snappy, len(page)))
			require.Zero(t, testing.AllocsPerRun(2, func() {
				if _, err := f.Compress(Snappy, dst, page); err != nil {
					t.Fatal(err)
				}
			}), "level %d", level)
		}
		require.NoError(t, f.Close())
	}
	// s2's "best" is not always smaller than its "better" (it is not on
	// this page): both are smaller than level 1.
	require.Less(t, size[2], size[1])
	require.Less(t, size[3], size[1])
	for _, level := range []int{0, MaxSnappyLevel + 1} {
		_, err := New(WithSnappyLevel(level))
		require.ErrorIs(t, err, ErrOption)
	}
}
