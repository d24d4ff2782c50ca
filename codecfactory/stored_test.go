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
