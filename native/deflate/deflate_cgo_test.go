//go:build cgo

package deflate

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/native/deflate/internal/deflatec"
)

func TestCompressBoundMatchesLibrary(t *testing.T) {
	for n := 0; n < 64<<20; n += 1 + n/5 {
		require.Equal(t, deflatec.Bound(n), CompressBound(n), "n=%d", n)
	}
	for n := 4990; n < 10010; n++ {
		require.Equal(t, deflatec.Bound(n), CompressBound(n), "n=%d", n)
	}
}
