package codecfactory

import (
	"encoding/binary"
	"testing"

	kzstd "github.com/klauspost/compress/zstd"
	"github.com/stretchr/testify/require"

	nzstd "github.com/pqcodec/pqcodec/native/zstd"
)

// TestZstdFrameHeaders checks that the factory's frame walk reads frame
// headers as nzstd.ParseFrameHeader does (one parser), and that both builds
// answer alike on legacy frames: nzstd reports their size unknown, the
// factory refuses them as corrupt.
func TestZstdFrameHeaders(t *testing.T) {
	f, err := New()
	require.NoError(t, err)
	enc, err := kzstd.NewWriter(nil, kzstd.WithEncoderConcurrency(1), kzstd.WithEncoderCRC(true), kzstd.WithSingleSegment(true))
	require.NoError(t, err)
	defer enc.Close()
	a, b := []byte("first frame, first frame"), []byte("second")
	fa, fb := enc.EncodeAll(a, nil), enc.EncodeAll(b, nil)

	// A skippable frame between two zstd frames.
	skip := binary.LittleEndian.AppendUint32(nil, 0x184D2A5E)
	skip = binary.LittleEndian.AppendUint32(skip, 3)
	skip = append(skip, 1, 2, 3)
	page := append(append(append([]byte{}, fa...), skip...), fb...)
	size, exact, err := zstdSize(page)
	require.NoError(t, err)
	require.True(t, exact)
	require.Equal(t, uint64(len(a)+len(b)), size)
	for _, frame := range [][]byte{fa, fb} {
		h, err := nzstd.ParseFrameHeader(frame)
		require.NoError(t, err)
		require.Equal(t, nzstd.FrameZstd, h.Kind)
		require.True(t, h.Checksum)
		n, known, err := nzstd.FrameContentSize(frame)
		require.NoError(t, err)
		require.True(t, known)
		require.Equal(t, h.ContentSize, n)
	}
	out, err := f.Decompress(Zstd, nil, page, len(a)+len(b))
	require.NoError(t, err)
	require.Equal(t, append(append([]byte{}, a...), b...), out)

	// A skippable frame whose payload runs past the page.
	_, _, err = zstdSize(skip[:9])
	require.ErrorIs(t, err, ErrCorrupt)

	// A legacy frame: its size is unknown to the parser, and the factory
	// refuses it.
	legacy := append(binary.LittleEndian.AppendUint32(nil, 0xFD2FB527), make([]byte, 16)...)
	h, err := nzstd.ParseFrameHeader(legacy)
	require.NoError(t, err)
	require.Equal(t, nzstd.FrameLegacy, h.Kind)
	_, known, err := nzstd.FrameContentSize(legacy)
	require.NoError(t, err)
	require.False(t, known)
	_, err = f.Decompress(Zstd, nil, legacy, 100)
	require.ErrorIs(t, err, ErrCorrupt)
	require.ErrorContains(t, err, "legacy zstd frame")
	_, err = f.Decompress(Zstd, nil, append(append([]byte{}, fa...), legacy...), len(a)+100)
	require.ErrorContains(t, err, "legacy zstd frame (v0.4 to v0.7) at offset")

	// A bad magic number: the parser's error, wrapped with both sentinels.
	bad := append([]byte{1, 2, 3, 4}, fa[4:]...)
	_, err = f.Decompress(Zstd, nil, bad, len(a))
	require.ErrorIs(t, err, ErrCorrupt)
	require.ErrorIs(t, err, nzstd.ErrCorrupt)
}
