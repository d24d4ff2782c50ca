package codecfactory

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestZeroAllocs checks that, once warm, Compress into a dst with
// CompressBound spare capacity and Decompress into a dst with the declared
// size of spare capacity allocate nothing, for every codec in both modes.
func TestZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	src := genData(datasets[5], 64<<10, 1)
	for _, nf := range testFactories(t) {
		for _, c := range allCodecs {
			t.Run(fmt.Sprintf("%s/%v", nf.name, c), func(t *testing.T) {
				var comp []byte
				if canCompress(nf.f, c) {
					cdst := make([]byte, 0, nf.f.CompressBound(c, len(src)))
					var err error
					comp, err = nf.f.Compress(c, cdst, src)
					require.NoError(t, err)
					allocs := testing.AllocsPerRun(20, func() {
						if _, err := nf.f.Compress(c, cdst, src); err != nil {
							t.Fatal(err)
						}
					})
					require.Zero(t, allocs, "Compress allocates")
				} else {
					comp = lzoFixture(t, src)
				}
				ddst := make([]byte, 0, len(src))
				allocs := testing.AllocsPerRun(20, func() {
					if _, err := nf.f.Decompress(c, ddst, comp, len(src)); err != nil {
						t.Fatal(err)
					}
				})
				if _, lib := nf.f.Implementation(c); c == Brotli && lib == "github.com/andybalholm/brotli" {
					// andybalholm/brotli allocates the context maps of every
					// metablock (three small slices); the ring buffer and
					// Huffman tables are reused.
					var ms testingMemStats
					ms.check(t, func() { _, _ = nf.f.Decompress(c, ddst, comp, len(src)) }, 4<<10)
					require.LessOrEqual(t, allocs, 3.0, "Decompress allocates")
					return
				}
				require.Zero(t, allocs, "Decompress allocates")
			})
		}
	}
}
