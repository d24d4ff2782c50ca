package bitpacked

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func FuzzDecode(f *testing.F) {
	f.Add([]byte{0x05, 0x39, 0x77}, uint8(3), uint16(8))
	f.Fuzz(func(t *testing.T, src []byte, w uint8, cnt uint16) {
		width, count := uint(w%33), int(cnt)
		dst := make([]uint32, 0, count+4)
		full := dst[:cap(dst)]
		for i := range full {
			full[i] = 0xC0FFEE
		}
		out, rest, err := Decode(dst, src, width, count)
		if err != nil {
			require.ErrorIs(t, err, ErrCorrupt)
			require.Less(t, len(src), ByteCount(count, width))
			require.Empty(t, out)
			return
		}
		require.Len(t, out, count)
		for _, v := range full[count:] {
			require.Equal(t, uint32(0xC0FFEE), v)
		}
		used := len(src) - len(rest)
		enc, err := Encode(nil, out, width)
		require.NoError(t, err)
		require.Len(t, enc, used)
		// Equal up to the padding bits of the last byte.
		if used > 0 {
			require.Equal(t, src[:used-1], enc[:used-1])
			pad := uint(used*8 - count*int(width))
			require.Equal(t, src[used-1]>>pad, enc[used-1]>>pad)
		}
	})
}
