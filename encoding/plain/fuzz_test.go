package plain

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

const canary = 0xC5

func FuzzDecodeByteArray(f *testing.F) {
	f.Add([]byte{3, 0, 0, 0, 'a', 'b', 'c', 0, 0, 0, 0, 2, 0, 0, 0, 'd'})
	f.Add([]byte{0xff, 0xff, 0xff, 0x7f})
	f.Fuzz(func(t *testing.T, src []byte) {
		// Canary bytes past cap(values) must survive any decode.
		backing := make([]byte, 1+len(src)+32)
		for i := range backing {
			backing[i] = canary
		}
		limit := 1 + len(src)/2
		values := backing[:1:limit]
		values, offsets, err := DecodeByteArray(values, nil, src)
		for _, b := range backing[limit:] {
			require.Equal(t, byte(canary), b)
		}
		if err != nil {
			require.ErrorIs(t, err, ErrCorrupt)
			require.Len(t, values, 1)
			require.Empty(t, offsets)
			return
		}
		require.LessOrEqual(t, len(values)-1, len(src))
		require.True(t, bytes.Equal(src, EncodeByteArray(nil, values, offsets)))
	})
}

func FuzzDecodeFixed(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, uint16(5))
	f.Fuzz(func(t *testing.T, src []byte, n uint16) {
		i32, err := Decode[int32](nil, src)
		if len(src)%4 == 0 {
			require.NoError(t, err)
			require.True(t, bytes.Equal(src, Encode(nil, i32)))
		} else {
			require.ErrorIs(t, err, ErrCorrupt)
		}
		i96, err := Decode[[12]byte](nil, src)
		if len(src)%12 == 0 {
			require.NoError(t, err)
			require.True(t, bytes.Equal(src, Encode(nil, i96)))
		} else {
			require.ErrorIs(t, err, ErrCorrupt)
		}
		bools := make([]bool, 0, int(n)+16)
		bools, err = DecodeBoolean(bools, src, int(n))
		if len(src) < (int(n)+7)/8 {
			require.ErrorIs(t, err, ErrCorrupt)
			return
		}
		require.NoError(t, err)
		require.Len(t, bools, int(n))
		for _, b := range bools[len(bools):cap(bools)] {
			require.False(t, b)
		}
		enc := EncodeBoolean(nil, bools)
		for i := range enc {
			m := byte(0xff)
			if i == len(enc)-1 && n%8 != 0 {
				m = 1<<(n%8) - 1
			}
			require.Equal(t, src[i]&m, enc[i])
		}
	})
}
