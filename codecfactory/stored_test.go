package codecfactory

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"io"
	"math"
	"math/rand/v2"
	"testing"

	kzstd "github.com/klauspost/compress/zstd"
	"github.com/stretchr/testify/require"
)

// TestStored checks the early test on pages that do and do not compress,
// and that stored pages decode with this package (native or pure Go),
// klauspost's zstd decoder and the standard library's gzip reader.
func TestStored(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	}
	doubles := func(n int) []byte { // as bench's RandomDoubles
		var b []byte
		for len(b) < n {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(r.NormFloat64()*1000))
		}
		return b[:n]
	}
	small := func(n int) []byte { // int64s below 1000: compressible
		var b []byte
		for len(b) < n {
			b = binary.LittleEndian.AppendUint64(b, uint64(r.IntN(1000)))
		}
		return b[:n]
	}
	require.True(t, incompressible(random(64<<10)))
	require.True(t, incompressible(doubles(64<<10)))
	require.False(t, incompressible(small(64<<10)))
	require.False(t, incompressible(random(4<<10)), "below storedMinPage")
	require.False(t, incompressible(bytes.Repeat(random(200), 400)), "repeats")

	f, err := New()
	require.NoError(t, err)
	defer f.Close()
	kd, err := kzstd.NewReader(nil)
	require.NoError(t, err)
	defer kd.Close()
	for _, n := range []int{8 << 10, 65535, 65536, 65536 + 256, 200_000, 1 << 20, 3<<20 + 17} {
		src := random(n)
		for _, c := range []Codec{Zstd, Gzip} {
			prefix := []byte("prefix")
			out, err := f.Compress(c, prefix, src)
			require.NoError(t, err)
			require.Equal(t, "prefix", string(out[:6]))
			page := out[6:]
			require.Less(t, len(page), n+n/1000+64, "%v %d: stored", c, n)
			back, err := f.Decompress(c, nil, page, n)
			require.NoError(t, err, "%v %d", c, n)
			require.Equal(t, src, back)
			switch c {
			case Zstd:
				got, err := kd.DecodeAll(page, nil)
				require.NoError(t, err)
				require.Equal(t, src, got)
			case Gzip:
				zr, err := gzip.NewReader(bytes.NewReader(page))
				require.NoError(t, err)
				got, err := io.ReadAll(zr)
				require.NoError(t, err)
				require.Equal(t, src, got)
			}
		}
	}
}

// TestHuffmanOnlyGzip checks that at GZIP levels 7 and above pages that
// look incompressible are Huffman-coded: random doubles keep their order-0
// gain, random bytes cost no more than stored blocks, both decode with
// this package and the standard library, and a warm call allocates nothing.
// Below level 7 the same pages are stored.
func TestHuffmanOnlyGzip(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var doubles []byte
	for len(doubles) < 1<<20 {
		doubles = binary.LittleEndian.AppendUint64(doubles, math.Float64bits(r.NormFloat64()*1000))
	}
	random := make([]byte, 300_000)
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	require.True(t, incompressible(doubles))
	require.True(t, incompressible(random))
	for _, level := range []int{6, 7, 9} {
		f, err := New(WithGzipLevel(level))
		require.NoError(t, err)
		for _, src := range [][]byte{doubles, random} {
			out, err := f.Compress(Gzip, nil, src)
			require.NoError(t, err)
			switch {
			case level < huffmanMinGzipLevel:
				require.Greater(t, len(out), len(src), "level %d: stored", level)
			case len(src) == len(doubles):
				require.Less(t, float64(len(out)), 0.97*float64(len(src)), "level %d: Huffman-coded doubles", level)
			default:
				require.Less(t, len(out), len(src)+len(src)/1000+64, "level %d: random bytes", level)
			}
			back, err := f.Decompress(Gzip, nil, out, len(src))
			require.NoError(t, err)
			require.Equal(t, src, back)
			zr, err := gzip.NewReader(bytes.NewReader(out))
			require.NoError(t, err)
			got, err := io.ReadAll(zr)
			require.NoError(t, err)
			require.Equal(t, src, got)
		}
		if level >= huffmanMinGzipLevel && !raceEnabled {
			dst := make([]byte, 0, f.CompressBound(Gzip, len(doubles)))
			allocs := testing.AllocsPerRun(5, func() {
				if _, err := f.Compress(Gzip, dst, doubles); err != nil {
					t.Fatal(err)
				}
			})
			require.Zero(t, allocs, "level %d: warm Huffman-only page", level)
		}
		require.NoError(t, f.Close())
	}
}

// BenchmarkIncompressible measures the early test Compress runs on every
// large ZSTD and GZIP page.
func BenchmarkIncompressible(b *testing.B) {
	page := make([]byte, 64<<10)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range page {
		page[i] = byte(r.IntN(16))
	}
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		if incompressible(page) {
			b.Fatal("stored")
		}
	}
}
