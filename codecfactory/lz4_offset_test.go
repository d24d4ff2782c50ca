package codecfactory

import (
	"bytes"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLz4ZeroOffset checks that an LZ4 block whose match has offset 0
// (which the format forbids) is an error for LZ4_RAW and for Hadoop-framed
// LZ4, in every factory, and never copies what the reused destination held
// before (liblz4 1.9.4's LZ4_decompress_safe accepts such a block: native/lz4
// scans for it before calling liblz4).
func TestLz4ZeroOffset(t *testing.T) {
	// One literal 'A', a match of 8 bytes at offset 0, five final literals,
	// which pierrec/lz4 decodes; and a block of mostly literals, which
	// liblz4 decodes in cgo builds (lz4NativeDecodes).
	block := []byte{0x14, 'A', 0x00, 0x00, 0x50, 'B', 'C', 'D', 'E', 'F'}
	const n = 1 + 8 + 5
	lits := lz4LiteralsBlock(0)
	const litsN = 132
	for _, tf := range testFactories(t) {
		for _, c := range []struct {
			codec Codec
			page  []byte
			n     int
		}{
			{Lz4Raw, block, n}, {Lz4, append([]byte{0, 0, 0, n, 0, 0, 0, byte(len(block))}, block...), n},
			{Lz4Raw, lits, litsN}, {Lz4, append([]byte{0, 0, 0, litsN, 0, 0, 0, byte(len(lits))}, lits...), litsN},
		} {
			dst := bytes.Repeat([]byte("secret!!"), 20)[:0] // an earlier page's bytes
			out, err := tf.f.Decompress(c.codec, dst, c.page, c.n)
			require.Error(t, err, "%s %v: decoded %q", tf.name, c.codec, out)
			require.True(t, errors.Is(err, ErrCorrupt), "%s %v: %v", tf.name, c.codec, err)
		}
	}
}
