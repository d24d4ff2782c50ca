package dictionary

import (
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
		for i := range 50_000 {
			k := uint64(r.IntN(20_000))
			if i%3 == 0 {
				k <<= 40
			}
			ix, s, ok := h.find(k)
			w, wok := want[k]
			require.Equal(t, wok, ok, "round %d key %d", round, k)
			if ok {
				require.Equal(t, w, ix)
				continue
			}
			want[k] = int32(len(want))
			h.insert(s, k, int32(len(want)-1))
		}
		require.Equal(t, len(want), h.n)
		h.reset()
	}
}
