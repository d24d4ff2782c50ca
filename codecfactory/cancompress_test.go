package codecfactory

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCanCompress checks CanCompress against what Compress does, in the
// default and the pure-Go factory.
func TestCanCompress(t *testing.T) {
	for _, nf := range testFactories(t) {
		for c := Codec(-1); c <= Lz4Raw+1; c++ {
			_, err := nf.f.Compress(c, nil, []byte("probe"))
			require.Equal(t, nf.f.CanCompress(c), err == nil, "%s %v: %v", nf.name, c, err)
			if c.Valid() && !nf.f.CanCompress(c) {
				require.True(t, errors.Is(err, ErrUnavailable), "%s %v: %v", nf.name, c, err)
			}
		}
	}
}
