package codecfactory

import (
	"bytes"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestConcurrent runs 64 goroutines, each compressing and decompressing 200
// small pages, cycling through every codec, through one shared Factory per mode, checking
// every page byte for byte (run it with -race).
func TestConcurrent(t *testing.T) {
	const goroutines, pages = 64, 200
	// Fast levels: the pure-Go encoders clear their match tables on every
	// page, which the race detector makes slow at the default levels.
	for _, nf := range testFactories(t, WithGzipLevel(1), WithBrotli(1, 16), WithZstdLevel(1)) {
		lzoPage, lzoSize, lzoSums := lzopPage(t, "tiny-9.lzo")
		var wg sync.WaitGroup
		errs := make(chan error, goroutines)
		for g := range goroutines {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs <- func() error {
					var comp, out []byte
					for p := range pages {
						c := allCodecs[(g+p)%len(allCodecs)]
						src := genData(datasets[(g+p)%len(datasets)], 64+(g*131+p*17)%2000, uint64(g*pages+p))
						if !canCompress(nf.f, c) {
							var err error
							if out, err = nf.f.Decompress(c, out[:0], lzoPage, lzoSize); err != nil {
								return err
							}
							if len(out) != lzoSize || !bytes.Equal(out[:32], []byte("abcabcabcabcabcabcabcabcabcabcab")) || lzoSums == nil {
								return fmt.Errorf("lzo fixture decoded wrong")
							}
							continue
						}
						var err error
						if comp, err = nf.f.Compress(c, comp[:0], src); err != nil {
							return err
						}
						if out, err = nf.f.Decompress(c, out[:0], comp, len(src)); err != nil {
							return err
						}
						if !bytes.Equal(out, src) {
							return fmt.Errorf("%v page %d of goroutine %d differs", c, p, g)
						}
					}
					return nil
				}()
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			require.NoError(t, err, nf.name)
		}
	}
}
