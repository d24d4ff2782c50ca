package codecfactory

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	nlz4 "github.com/pqcodec/pqcodec/native/lz4"
)

// TestLz4NativeOracle cross-checks liblz4 (the default Factory in cgo
// builds) against pierrec/lz4 (the pure-Go Factory, the CGO_ENABLED=0 path)
// for LZ4_RAW and Hadoop-framed LZ4 at every level: each decodes the other's
// pages to the same bytes.
func TestLz4NativeOracle(t *testing.T) {
	if !nlz4.Available {
		t.Skip("built without liblz4 (no cgo)")
	}
	for _, level := range []int{0, 1, 5, MaxLz4Level} {
		nfs := testFactories(t, WithLz4Level(level))
		native, pure := nfs[0].f, nfs[1].f
		for _, c := range []Codec{Lz4Raw, Lz4} {
			_, lib := native.Implementation(c)
			require.Contains(t, lib, "liblz4")
			for _, d := range datasets {
				for _, n := range []int{0, 1, 100, 64 << 10, 1 << 20} {
					t.Run(fmt.Sprintf("%d/%v/%s/%d", level, c, d.name, n), func(t *testing.T) {
						src := genData(d, n, uint64(n+level))
						for _, dir := range [][2]*Factory{{native, pure}, {pure, native}} {
							comp, err := dir[0].Compress(c, nil, src)
							require.NoError(t, err)
							out, err := dir[1].Decompress(c, nil, comp, n)
							require.NoError(t, err)
							require.True(t, bytes.Equal(src, out))
						}
					})
				}
			}
		}
	}
}
