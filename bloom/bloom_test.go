package bloom

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// TestParquetMrFilter reads bloom_filter.xxhash.bin, which parquet-mr
// wrote after inserting "hello", "parquet", "bloom" and "filter"
// (parquet-testing data/README.md): those are in it, few others are, and
// MarshalTo writes the same bytes back.
func TestParquetMrFilter(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(testcorpus.Dir(t), "data", "bloom_filter.xxhash.bin"))
	require.NoError(t, err)
	f, n, err := Unmarshal(b)
	require.NoError(t, err)
	require.Equal(t, len(b), n)
	for _, s := range []string{"hello", "parquet", "bloom", "filter"} {
		require.True(t, f.Check(HashBytes([]byte(s))), s)
	}
	fp := 0
	for i := range 10000 {
		if f.Check(HashBytes(fmt.Appendf(nil, "absent-%d", i))) {
			fp++
		}
	}
	require.Less(t, fp, 100, "false positives of 10000 in a filter of %d bytes holding 4 values", f.NumBytes())
	require.Equal(t, b, f.MarshalTo(nil))

	// The same filter built here.
	g := New(f.NumBytes())
	for _, s := range []string{"hello", "parquet", "bloom", "filter"} {
		g.Insert(HashBytes([]byte(s)))
	}
	require.Equal(t, b, g.MarshalTo(nil))
}

// TestFalsePositiveRate inserts 20,000 values into NewForNDV(20000, fpp)
// and checks 200,000 others: every inserted value is found and the rate
// of false positives stays near fpp.
func TestFalsePositiveRate(t *testing.T) {
	for _, fpp := range []float64{0.1, 0.01, 0.001} {
		f := NewForNDV(20000, fpp)
		for i := range int64(20000) {
			f.Insert(HashInt64(i))
		}
		for i := range int64(20000) {
			require.True(t, f.Check(HashInt64(i)))
		}
		fp := 0
		for i := int64(1 << 40); i < 1<<40+200000; i++ {
			if f.Check(HashInt64(i)) {
				fp++
			}
		}
		rate := float64(fp) / 200000
		t.Logf("fpp %g: %d bytes, rate %.5f", fpp, f.NumBytes(), rate)
		require.Less(t, rate, 2*fpp, "fpp %g", fpp)
	}
}

func TestSizes(t *testing.T) {
	for _, c := range []struct{ in, want int }{{0, 32}, {1, 32}, {32, 32}, {33, 64}, {1000, 1024}, {1 << 30, MaxBytes}} {
		require.Equal(t, c.want, New(c.in).NumBytes(), "New(%d)", c.in)
	}
	// -8 * 1e6 / ln(1 - 0.01^(1/8)) = 9,585,058 bits: 1,198,133 bytes, 2 MiB.
	require.Equal(t, 2<<20, NumBytesFor(1_000_000, 0.01))
	require.Equal(t, MinBytes, NumBytesFor(1, 0.01))
	require.Equal(t, MinBytes, NumBytesFor(100, 0))
	require.Equal(t, MaxBytes, NumBytesFor(1<<40, 0.001))
	var zero Filter
	require.True(t, zero.Check(HashInt32(1)))
}

// TestHashes checks the hash of each physical type's PLAIN encoding.
func TestHashes(t *testing.T) {
	require.Equal(t, Hash([]byte{1, 0, 0, 0}), HashInt32(1))
	require.Equal(t, Hash([]byte{0xff, 0xff, 0xff, 0xff}), HashInt32(-1))
	require.Equal(t, Hash([]byte{1, 0, 0, 0, 0, 0, 0, 0}), HashInt64(1))
	require.Equal(t, Hash([]byte{0, 0, 0x80, 0x3f}), HashFloat32(1))
	require.Equal(t, Hash([]byte{0, 0, 0, 0, 0, 0, 0xf0, 0x3f}), HashFloat64(1))
	require.NotEqual(t, HashFloat64(0), HashFloat64(math.Copysign(0, -1)), "-0 and +0 have different bits")
	require.Equal(t, Hash([]byte("abc")), HashBytes([]byte("abc")))
	var i96 [12]byte
	i96[0] = 7
	require.Equal(t, Hash(i96[:]), HashInt96(i96))
	// xxHash64 of the empty input, seed 0 (the algorithm's published value).
	require.Equal(t, uint64(0xef46db3751d8e999), Hash(nil))
}

func TestUnmarshalErrors(t *testing.T) {
	good := New(64).MarshalTo(nil)
	for i := range len(good) {
		_, _, err := Unmarshal(good[:i])
		require.ErrorIs(t, err, ErrCorrupt, "cut at %d", i)
	}
	for _, h := range []format.BloomFilterHeader{
		{NumBytes: 0, Algorithm: 1, Hash: 1, Compression: 1},
		{NumBytes: 33, Algorithm: 1, Hash: 1, Compression: 1},
	} {
		b := append(format.AppendBloomFilterHeader(nil, &h), make([]byte, 64)...)
		_, _, err := Unmarshal(b)
		require.ErrorIs(t, err, ErrCorrupt, "%+v", h)
	}
	for _, h := range []format.BloomFilterHeader{
		{NumBytes: 32, Algorithm: 2, Hash: 1, Compression: 1},
		{NumBytes: 32, Algorithm: 1, Hash: 0, Compression: 1},
		{NumBytes: 32, Algorithm: 1, Hash: 1, Compression: 2},
	} {
		b := append(format.AppendBloomFilterHeader(nil, &h), make([]byte, 32)...)
		_, _, err := Unmarshal(b)
		require.True(t, errors.Is(err, ErrUnsupported), "%+v: %v", h, err)
	}
}
