package format

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// TestBloomFilterHeader decodes the header of parquet-mr's
// bloom_filter.xxhash.bin and round-trips headers through
// AppendBloomFilterHeader.
func TestBloomFilterHeader(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(testcorpus.Dir(t), "data", "bloom_filter.xxhash.bin"))
	require.NoError(t, err)
	h, n, err := DecodeBloomFilterHeader(b)
	require.NoError(t, err)
	require.Equal(t, BloomFilterHeader{NumBytes: int32(len(b) - n), Algorithm: BloomBlock, Hash: BloomXxHash, Compression: BloomUncompressed}, h)
	re := AppendBloomFilterHeader(nil, &h)
	require.Equal(t, b[:n], re, "parquet-mr's header bytes")

	for _, h := range []BloomFilterHeader{
		{NumBytes: 32, Algorithm: 1, Hash: 1, Compression: 1},
		{NumBytes: 1 << 20, Algorithm: 2, Hash: 0, Compression: 3},
		{NumBytes: 0},
	} {
		enc := AppendBloomFilterHeader([]byte("x"), &h)
		got, n, err := DecodeBloomFilterHeader(append(enc[1:], 9, 9))
		require.NoError(t, err)
		require.Equal(t, len(enc)-1, n)
		require.Equal(t, h, got)
		n2, size, err := DecodeBloomFilterHeaderSize(enc[1:])
		require.NoError(t, err)
		require.Equal(t, n, n2)
		require.Equal(t, h.NumBytes, size)
	}
	for i := range len(b[:n]) {
		_, _, err := DecodeBloomFilterHeader(b[:i])
		require.True(t, errors.Is(err, ErrCorrupt), "header cut at %d: %v", i, err)
	}
	neg := BloomFilterHeader{NumBytes: -1}
	_, _, err = DecodeBloomFilterHeader(AppendBloomFilterHeader(nil, &neg))
	require.ErrorIs(t, err, ErrCorrupt)
}
