package codecfactory

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// hugePage is the uncompressed size from which TestRealPages decompresses a
// page only when PQCODEC_HUGE_PAGES=1: large_string_map.brotli.parquet has
// two pages of 1 GiB, which cost 2 GiB of memory and about 10 s of CPU with
// libbrotli (a minute with pure Go), too much for every test run.
const hugePage = 64 << 20

// TestRealPages walks every page header of every non-encrypted file in the
// parquet-testing data/ directory and checks that every page decompresses
// to exactly the size its header declares, with each factory mode.
func TestRealPages(t *testing.T) {
	dir := filepath.Join(testcorpus.Dir(t), "data")
	var files []string
	require.NoError(t, filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".parquet") {
			files = append(files, path)
		}
		return err
	}))
	require.NotEmpty(t, files)

	for _, nf := range testFactories(t) {
		t.Run(nf.name, func(t *testing.T) {
			pages := map[Codec]int{}
			var buf, chunk []byte
			for _, path := range files {
				name, _ := filepath.Rel(dir, path)
				f, err := os.Open(path)
				require.NoError(t, err)
				st, err := f.Stat()
				require.NoError(t, err)
				md, err := format.ReadFooter(f, st.Size())
				require.NoError(t, err, name)
				for _, rg := range md.RowGroups {
					for i := range rg.Columns {
						cc := &rg.Columns[i]
						rng, err := md.ColumnChunkRange(cc, st.Size())
						if errors.Is(err, format.ErrEncrypted) {
							continue
						}
						require.NoError(t, err, name)
						codec := Codec(cc.MetaData.Codec)
						chunk, err = format.ReadColumnChunk(chunk, f, rng)
						require.NoError(t, err, name)
						w := format.NewPageWalker(chunk, rng)
						for w.Next() {
							h := w.Header()
							body, n, c := w.Body(), int(h.UncompressedPageSize), codec
							if h.Type == format.DataPageV2 {
								// The one v2 split (internal/pages, which the
								// reader uses, imports this package): levels
								// are stored uncompressed before the values.
								parts, err := format.SplitDataPageV2(h, body)
								require.NoError(t, err, name)
								body, n = parts.Values, parts.ValuesSize
								if !parts.Compressed {
									c = Uncompressed
								}
							}
							if n >= hugePage && os.Getenv("PQCODEC_HUGE_PAGES") != "1" {
								t.Logf("%s: skipping %d-byte %v page (set PQCODEC_HUGE_PAGES=1)", name, n, c)
								continue
							}
							buf, err = nf.f.Decompress(c, buf[:0], body, n)
							require.NoError(t, err, "%s page at %d (%v, %d bytes)", name, w.Offset(), c, n)
							require.Len(t, buf, n, name)
							pages[c]++
						}
						require.NoError(t, w.Err(), name)
					}
				}
				require.NoError(t, f.Close())
				if cap(buf) > hugePage {
					buf = nil // do not hold a gigabyte for the rest of the walk
				}
			}
			t.Logf("pages decompressed per codec: %v", pages)
			for _, c := range []Codec{Uncompressed, Snappy, Gzip, Brotli, Lz4, Zstd, Lz4Raw} {
				require.Positive(t, pages[c], "no %v page in the corpus walk", c)
			}
		})
	}
}
