package nativetest

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// Page is the compressed payload of one page of a Parquet file.
type Page struct {
	Offset int    // file offset of the page header
	Type   int    // PageType: 0 data, 2 dictionary, 3 data v2
	Size   int    // uncompressed size of Data's content
	Data   []byte // compressed bytes (levels of v2 pages excluded)
}

// Pages returns the compressed payloads of the pages of a Parquet file,
// walking every column chunk with package format. V2 pages whose values
// are stored uncompressed are left out, and so are the level bytes of the
// others.
func Pages(file []byte) ([]Page, error) {
	size := int64(len(file))
	md, err := format.ReadFooter(bytes.NewReader(file), size)
	if err != nil {
		return nil, err
	}
	var pages []Page
	for rg := range md.RowGroups {
		for c := range md.RowGroups[rg].Columns {
			rng, err := md.ColumnChunkRange(&md.RowGroups[rg].Columns[c], size)
			if err != nil {
				return nil, err
			}
			chunk, err := format.ReadColumnChunk(nil, bytes.NewReader(file), rng)
			if err != nil {
				return nil, err
			}
			w := format.NewPageWalker(chunk, rng)
			for w.Next() {
				h, body := w.Header(), w.Body()
				p := Page{Offset: int(w.Offset()), Type: int(h.Type), Size: int(h.UncompressedPageSize), Data: body}
				switch h.Type {
				case format.DataPageV2:
					v2 := &h.DataPageHeaderV2
					levels := int(v2.DefinitionLevelsByteLength) + int(v2.RepetitionLevelsByteLength)
					if levels < 0 || levels > len(body) || levels > p.Size {
						return nil, fmt.Errorf("nativetest: v2 levels of page at %d", p.Offset)
					}
					if !v2.IsCompressed {
						continue
					}
					p.Data, p.Size = body[levels:], p.Size-levels
				case format.DataPage, format.DictionaryPage:
				default:
					continue
				}
				pages = append(pages, p)
			}
			if err := w.Err(); err != nil {
				return nil, err
			}
		}
	}
	return pages, nil
}

// CheckCorpusPages decodes every page of the named parquet-testing files
// into a dst of exactly the declared size (with a canary behind it) and
// compares the content with oracle's. Pages with no compressed bytes (an
// empty v2 page) are skipped: there is nothing to decompress.
func CheckCorpusPages(t *testing.T, files []string, newDec func() (Decompressor, error),
	oracle func([]byte) ([]byte, error)) {
	t.Helper()
	dec, err := newDec()
	require.NoError(t, err)
	defer dec.Close()
	total := 0
	for _, name := range files {
		file, err := os.ReadFile(testcorpus.Data(t, name))
		require.NoError(t, err)
		pages, err := Pages(file)
		require.NoError(t, err, name)
		require.NotEmpty(t, pages, name)
		for _, p := range pages {
			if len(p.Data) == 0 {
				continue
			}
			dst := WithCanary(nil, p.Size)
			got, err := dec.Decompress(dst, p.Data)
			require.NoError(t, err, "%s page at %d", name, p.Offset)
			require.Len(t, got, p.Size, "%s page at %d", name, p.Offset)
			require.True(t, CanaryIntact(dst))
			want, err := oracle(p.Data)
			require.NoError(t, err, "oracle, %s page at %d", name, p.Offset)
			require.True(t, bytes.Equal(want, got), "%s page at %d differs from the oracle", name, p.Offset)
			total++
		}
	}
	t.Logf("%d pages decoded", total)
}
