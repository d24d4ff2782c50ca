//go:build cgo

package zstd

import (
	"testing"

	datadog "github.com/DataDog/zstd"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/native/internal/nativetest"
	"github.com/pqcodec/pqcodec/native/zstd/internal/zstdc"
)

func TestCompressBoundMatchesLibrary(t *testing.T) {
	for n := 0; n < 1<<20; n += 1 + n/3 {
		require.Equal(t, datadog.CompressBound(n), CompressBound(n), "n=%d", n)
	}
}

// refFrameContentSize is libzstd's ZSTD_getFrameContentSize in
// FrameContentSize's terms.
func refFrameContentSize(src []byte) (size uint64, known, bad, ok bool) {
	r := zstdc.FrameContentSize(src)
	switch r {
	case zstdc.ContentSizeError:
		return 0, false, true, true
	case zstdc.ContentSizeUnknown:
		return 0, false, false, true
	}
	if len(src) >= 4 && src[3] == 0xfd && src[2] == 0x2f && src[1] == 0xb5 && src[0] >= 0x24 && src[0] <= 0x27 {
		return 0, false, false, true // legacy frame: size left unknown
	}
	if len(src) >= 4 && src[3] == 0x18 && src[2] == 0x4d && src[1] == 0x2a && src[0]&0xf0 == 0x50 {
		return 0, false, false, true // libzstd reports 0 for skippable frames
	}
	return r, true, false, true
}

func TestFrameContentSizeMatchesLibrary(t *testing.T) {
	comp, err := NewCompressor(1)
	require.NoError(t, err)
	defer comp.Close()
	for n := range 3000 {
		z, err := comp.Compress(nil, nativetest.ParquetPage(n*37, uint64(n)))
		require.NoError(t, err)
		for _, src := range [][]byte{z, z[:n%len(z)], nativetest.RandomBytes(n%20, uint64(n))} {
			checkFrameContentSize(t, src)
		}
	}
}

func checkFrameContentSize(t *testing.T, src []byte) {
	size, known, err := FrameContentSize(src)
	wantSize, wantKnown, wantBad, _ := refFrameContentSize(src)
	if wantBad {
		require.ErrorIs(t, err, ErrCorrupt, "%x", src)
		return
	}
	require.NoError(t, err, "%x", src)
	require.Equal(t, wantKnown, known, "%x", src)
	require.Equal(t, wantSize, size, "%x", src)
}
