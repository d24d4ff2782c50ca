package bitpacked

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSpecVector is the example of the spec: 0..7 with bit width 3.
func TestSpecVector(t *testing.T) {
	want := []byte{0b00000101, 0b00111001, 0b01110111}
	enc, err := Encode(nil, []uint32{0, 1, 2, 3, 4, 5, 6, 7}, 3)
	require.NoError(t, err)
	require.Equal(t, want, enc)
	got, rest, err := Decode(nil, append(want, 0xAA), 3, 8)
	require.NoError(t, err)
	require.Equal(t, []uint32{0, 1, 2, 3, 4, 5, 6, 7}, got)
	require.Equal(t, []byte{0xAA}, rest)
}

func TestHandVectors(t *testing.T) {
	// Width 1: 1,0,1,1,0 MSB first, padded: 0b10110000.
	enc, err := Encode(nil, []uint32{1, 0, 1, 1, 0}, 1)
	require.NoError(t, err)
	require.Equal(t, []byte{0xB0}, enc)
	// Width 5: 31, 1 -> 11111 00001 padded -> 0b11111000 0b01000000.
	enc, err = Encode(nil, []uint32{31, 1}, 5)
	require.NoError(t, err)
	require.Equal(t, []byte{0xF8, 0x40}, enc)
	got, _, err := Decode(nil, enc, 5, 2)
	require.NoError(t, err)
	require.Equal(t, []uint32{31, 1}, got)
	// Width 12: 0xABC, 0x123 -> 0xAB 0xC1 0x23.
	got, _, err = Decode(nil, []byte{0xAB, 0xC1, 0x23}, 12, 2)
	require.NoError(t, err)
	require.Equal(t, []uint32{0xABC, 0x123}, got)
	// Width 0 takes no bytes.
	got, rest, err := Decode(nil, []byte{1}, 0, 4)
	require.NoError(t, err)
	require.Equal(t, []uint32{0, 0, 0, 0}, got)
	require.Equal(t, []byte{1}, rest)
}

func TestErrors(t *testing.T) {
	dst := []uint32{9}
	out, _, err := Decode(dst, []byte{0x05, 0x39}, 3, 8)
	require.ErrorIs(t, err, ErrCorrupt)
	require.Equal(t, dst, out)
	_, _, err = Decode(nil, nil, 33, 1)
	require.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = Decode(nil, nil, 3, -1)
	require.ErrorIs(t, err, ErrInvalidArgument)
	_, err = Encode(nil, []uint32{8}, 3)
	require.ErrorIs(t, err, ErrInvalidArgument)
	_, err = Encode(nil, nil, 40)
	require.ErrorIs(t, err, ErrInvalidArgument)
}

func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for width := uint(0); width <= 32; width++ {
		for _, n := range []int{0, 1, 7, 8, 9, 100, 333} {
			vals := make([]uint32, n)
			for i := range vals {
				vals[i] = uint32(r.Uint64() & (1<<width - 1))
			}
			enc, err := Encode([]byte{1}, vals, width)
			require.NoError(t, err)
			require.Len(t, enc, 1+ByteCount(n, width))
			got, rest, err := Decode(nil, enc[1:], width, n)
			require.NoError(t, err)
			require.Empty(t, rest)
			require.Equal(t, len(vals), len(got))
			if n > 0 {
				require.Equal(t, vals, got)
			}
		}
	}
}

func TestZeroAllocs(t *testing.T) {
	src := make([]byte, 1000)
	dst := make([]uint32, 0, 2000)
	require.Zero(t, testing.AllocsPerRun(20, func() {
		dst, _, _ = Decode(dst[:0], src, 3, 2000)
	}))
}
