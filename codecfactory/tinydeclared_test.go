package codecfactory

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	pqerrs "github.com/pqcodec/pqcodec/internal/errs"
)

// TestTinyDeclaredSize decompresses real pages of every codec, native and
// pure Go, with declared sizes of 0, 1, negative and smaller than the real
// output: each is an error of the taxonomy, never a panic (a Hadoop-LZ4 or
// LZ4_RAW page declaring 0 bytes handed a nil destination to pierrec/lz4,
// which crashed the process with SIGSEGV), and nothing is written past the
// declared size (canary bytes follow it).
func TestTinyDeclaredSize(t *testing.T) {
	for _, size := range []int{1, 7, 100, 4096} {
		page := genData(datasets[5], size, 27)
		for _, nf := range testFactories(t) {
			for _, c := range allCodecs {
				if !nf.f.CanCompress(c) {
					continue
				}
				src, err := nf.f.Compress(c, nil, page)
				require.NoError(t, err)
				got, err := nf.f.Decompress(c, nil, src, len(page))
				require.NoError(t, err)
				require.Equal(t, page, got)
				for _, n := range []int{0, 1, -1, -1 << 31, len(page) / 2, len(page) - 1} {
					if n == len(page) {
						continue
					}
					t.Run(fmt.Sprintf("%s/%v/%d/declared=%d", nf.name, c, size, n), func(t *testing.T) {
						const canary = 0xA5
						for _, room := range []int{-1, 0, max(n, 0)} {
							var dst []byte
							if room >= 0 {
								buf := bytes.Repeat([]byte{canary}, room+64)
								dst = buf[:0:room]
								out, err := nf.f.Decompress(c, dst, src, n)
								require.Error(t, err)
								require.Empty(t, out)
								require.Equal(t, bytes.Repeat([]byte{canary}, 64), buf[room:], "written past cap(dst)")
							} else {
								out, err := nf.f.Decompress(c, nil, src, n)
								require.Error(t, err)
								require.Empty(t, out)
								require.True(t, errors.Is(err, pqerrs.ErrCorrupt), "%v", err)
							}
						}
					})
				}
			}
		}
	}
}
