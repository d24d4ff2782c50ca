package dictionary

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestHashTable checks the table against a Go map over growth, colliding
// keys (multiples of a large power of two), the zero key and reset.
func TestHashTable(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var h hashTable[uint64]
	for round := range 3 {
		want := map[uint64]int32{}
		keys := make([]uint64, 50_000)
		for i := range keys {
			keys[i] = uint64(r.IntN(20_000))
			if i%3 == 0 {
				keys[i] <<= 40
			}
		}
		out := make([]uint32, len(keys))
		for i := 0; i < len(keys); i++ {
			n := h.lookup(keys[i:], out[i:])
			for j := i; j < i+n; j++ {
				w, ok := want[keys[j]]
				require.True(t, ok, "round %d key %d found but never inserted", round, keys[j])
				require.Equal(t, uint32(w), out[j])
			}
			if i += n; i == len(keys) {
				break
			}
			_, ok := want[keys[i]]
			require.False(t, ok, "round %d key %d inserted but not found", round, keys[i])
			want[keys[i]] = int32(len(want))
			h.insert(keys[i], int32(len(want)-1))
		}
		require.Equal(t, len(want), h.n)
		h.reset()
	}
}

// TestBytesTable checks the byte-string table against a Go map over
// growth, values of every length from 0 to 40 (each branch of keyOf),
// values that differ in one byte, and reset.
func TestBytesTable(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	tb := bytesTable{seed: r.Uint64()}
	for round := range 3 {
		want := map[string]int32{}
		values, offsets := []byte(nil), []int32{0}
		tb.grow()
		for range 30_000 {
			v := fmt.Appendf(nil, "%0*d", r.IntN(41), r.IntN(5000))
			if len(v) > 0 && r.IntN(4) == 0 {
				v[r.IntN(len(v))] ^= 0x80
			}
			ix, k := tb.find(v, values, offsets)
			w, ok := want[string(v)]
			if ok {
				require.Equal(t, w, ix, "round %d value %q", round, v)
				continue
			}
			require.Equal(t, int32(-1), ix, "round %d value %q", round, v)
			require.Equal(t, keyOf(v), k)
			want[string(v)] = int32(len(want))
			values = append(values, v...)
			offsets = append(offsets, int32(len(values)))
			tb.insert(k, int32(len(want)-1))
		}
		require.Equal(t, len(want), tb.n)
		tb.reset()
	}
}

// TestKeyOf checks that equal values have equal keys wherever they lie in
// memory, that values of up to 16 bytes differing in any byte or in length
// have different keys, and that longer ones have different hashes.
func TestKeyOf(t *testing.T) {
	buf := make([]byte, 80)
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	var tb bytesTable
	for n := 0; n <= 40; n++ {
		v := buf[3 : 3+n]
		c := append([]byte(nil), v...)
		require.Equal(t, keyOf(v), keyOf(c), "length %d", n)
		for i := range c {
			c[i] ^= 1
			require.NotEqual(t, keyOf(v), keyOf(c), "length %d byte %d", n, i)
			require.NotEqual(t, tb.hash(keyOf(v)), tb.hash(keyOf(c)), "length %d byte %d", n, i)
			c[i] ^= 1
		}
		require.NotEqual(t, keyOf(v), keyOf(buf[3:4+n]), "length %d", n)
	}
}
