package format

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// catalogRow is one row of the corpus CATALOG.md "Files" table. The catalog
// was produced independently of this package (by walking footers and page
// headers with parquet-go's thrift decoder and by full reads with arrow-go and
// parquet-go; see its header), so matching it cross-checks our decoder.
type catalogRow struct {
	rows, rowGroups    int64
	codecs             []string
	dataPages, dictPgs int
}

// readCatalog parses the Rows, RGs, Codecs and Pages columns of CATALOG.md,
// keyed by the path relative to the corpus root ("data/x.parquet").
func readCatalog(t *testing.T, dir string) map[string]catalogRow {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "CATALOG.md"))
	require.NoError(t, err)
	defer f.Close()
	out := map[string]catalogRow{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(line, "|")
		require.GreaterOrEqual(t, len(cells), 12, line)
		name := strings.Trim(strings.TrimSpace(cells[1]), "`")
		var row catalogRow
		row.rows, err = strconv.ParseInt(strings.TrimSpace(cells[2]), 10, 64)
		require.NoError(t, err, line)
		row.rowGroups, err = strconv.ParseInt(strings.TrimSpace(cells[3]), 10, 64)
		require.NoError(t, err, line)
		if c := strings.TrimSpace(cells[5]); c != "—" {
			row.codecs = strings.Split(c, ", ")
			slices.Sort(row.codecs)
		}
		pages := strings.Split(strings.TrimSpace(cells[10]), " / ")
		require.Len(t, pages, 2, line)
		row.dataPages, err = strconv.Atoi(pages[0])
		require.NoError(t, err, line)
		row.dictPgs, err = strconv.Atoi(pages[1])
		require.NoError(t, err, line)
		out[name] = row
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, out)
	return out
}

// corpusFiles lists the parquet files under dir/sub, relative to dir.
func corpusFiles(t *testing.T, dir, sub string) []string {
	t.Helper()
	var names []string
	err := filepath.WalkDir(filepath.Join(dir, sub), func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() ||
			!strings.HasSuffix(e.Name(), ".parquet") && !strings.HasSuffix(e.Name(), ".parquet.encrypted") {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		names = append(names, filepath.ToSlash(rel))
		return err
	})
	require.NoError(t, err)
	require.NotEmpty(t, names)
	return names
}

// chunkWalk is what walking one column chunk found.
type chunkWalk struct {
	dataPages, dictPages, indexPages int
	numValues, v2Rows                int64
	allV2                            bool
}

func walkChunk(f *os.File, size int64, md *FileMetaData, c *ColumnChunk) (chunkWalk, error) {
	rng, err := md.ColumnChunkRange(c, size)
	if err != nil {
		return chunkWalk{}, err
	}
	chunk, err := ReadColumnChunk(nil, f, rng)
	if err != nil {
		return chunkWalk{}, err
	}
	res := chunkWalk{allV2: true}
	w := NewPageWalker(chunk, rng)
	for w.Next() {
		h := w.Header()
		switch h.Type {
		case DataPage:
			res.dataPages++
			res.numValues += int64(h.DataPageHeader.NumValues)
			res.allV2 = false
		case DataPageV2:
			res.dataPages++
			res.numValues += int64(h.DataPageHeaderV2.NumValues)
			res.v2Rows += int64(h.DataPageHeaderV2.NumRows)
		case DictionaryPage:
			res.dictPages++
		case IndexPage:
			res.indexPages++
		}
	}
	return res, w.Err()
}

func TestCorpusData(t *testing.T) {
	dir := testcorpus.Dir(t)
	catalog := readCatalog(t, dir)
	for _, name := range corpusFiles(t, dir, "data") {
		t.Run(name, func(t *testing.T) {
			want, ok := catalog[name]
			require.True(t, ok, "file missing from CATALOG.md")
			f, err := os.Open(filepath.Join(dir, name))
			require.NoError(t, err)
			defer f.Close()
			st, err := f.Stat()
			require.NoError(t, err)
			md, err := ReadFooter(f, st.Size())
			if want.codecs == nil { // the catalog could not read the footer: PARE magic
				require.ErrorIs(t, err, ErrEncrypted)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, strings.HasSuffix(name, ".encrypted"), md.HasEncryptedColumns(), "encrypted columns")
			assert.Equal(t, strings.HasSuffix(name, ".encrypted"), md.EncryptionAlgorithm != nil, "encryption algorithm")
			assert.Equal(t, want.rows, md.NumRows, "num_rows")
			assert.Equal(t, want.rowGroups, int64(len(md.RowGroups)), "row groups")

			schema, err := NewSchema(md.Schema)
			require.NoError(t, err)
			leaves := schema.Leaves()

			var codecs []string
			var got chunkWalk
			var rgRows int64
			for i := range md.RowGroups {
				rg := &md.RowGroups[i]
				rgRows += rg.NumRows
				require.Len(t, rg.Columns, len(leaves), "row group %d: columns vs schema leaves", i)
				for j := range rg.Columns {
					c := &rg.Columns[j]
					if c.MetaData != nil {
						if !slices.Contains(codecs, c.MetaData.Codec.String()) {
							codecs = append(codecs, c.MetaData.Codec.String())
						}
						assert.Equal(t, leaves[j].Path(), c.MetaData.PathInSchema, "row group %d column %d path", i, j)
						assert.Equal(t, *leaves[j].Element.Type, c.MetaData.Type, "row group %d column %d type", i, j)
					}
					if c.Encrypted() {
						_, _, err := c.PageRange(st.Size())
						require.ErrorIs(t, err, ErrEncrypted)
						continue
					}
					w, err := walkChunk(f, st.Size(), md, c)
					require.NoError(t, err, "row group %d column %d (%v)", i, j, leaves[j].Path)
					got.dataPages += w.dataPages
					got.dictPages += w.dictPages
					// Cross-checks that do not depend on the catalog: the
					// data pages hold the chunk's values, and for
					// non-repeated columns each value is one row.
					assert.Equal(t, c.MetaData.NumValues, w.numValues, "row group %d column %d num_values", i, j)
					if leaves[j].MaxRepetitionLevel == 0 {
						assert.Equal(t, rg.NumRows, w.numValues, "row group %d column %d rows", i, j)
					}
					if w.allV2 && w.dataPages > 0 {
						assert.Equal(t, rg.NumRows, w.v2Rows, "row group %d column %d v2 num_rows", i, j)
					}
				}
			}
			if name != "data/repeated_no_annotation.parquet" { // its footer says 0 rows; the row group says 6 (see CATALOG.md)
				assert.Equal(t, md.NumRows, rgRows, "file num_rows vs row groups")
			}
			slices.Sort(codecs)
			assert.Equal(t, want.codecs, codecs, "codecs")
			assert.Equal(t, want.dataPages, got.dataPages, "data pages")
			assert.Equal(t, want.dictPgs, got.dictPages, "dictionary pages")
		})
	}
}

// badDataStage says where our metadata layer rejects a bad_data file:
// "" means the footer, schema and page walk are all fine because the defect
// lies in the page contents (levels, values), which this package does not
// decode. Stages were established by running this package on each file and
// checked against bad_data/README.md's description of the defect.
var badDataStage = map[string]string{
	"ARROW-GH-41317.parquet":              "rowgroup", // footer corrupted: a path_in_schema no longer matches the schema
	"ARROW-GH-41321.parquet":              "walk",     // a data page header with a negative num_values
	"ARROW-GH-43605.parquet":              "",         // RLE dictionary indices with bit width 0
	"ARROW-GH-45185.parquet":              "",         // repetition levels start with 1
	"ARROW-GH-47662.parquet":              "",         // nulls in a required column
	"ARROW-RS-GH-6229-DICTHEADER.parquet": "walk",     // corrupted dictionary page header
	"ARROW-RS-GH-6229-LEVELS.parquet":     "",         // too few repetition levels
	"PARQUET-1481.parquet":                "schema",   // corrupted schema: physical type -7
}

// TestCorpusBadData checks that every bad_data file is rejected at the
// expected stage with an error wrapping ErrCorrupt, or passes when its defect
// is in page contents; never a panic.
func TestCorpusBadData(t *testing.T) {
	dir := testcorpus.Dir(t)
	for _, name := range corpusFiles(t, dir, "bad_data") {
		t.Run(name, func(t *testing.T) {
			want, ok := badDataStage[strings.TrimPrefix(name, "bad_data/")]
			require.True(t, ok, "no expectation for this file")
			f, err := os.Open(filepath.Join(dir, name))
			require.NoError(t, err)
			defer f.Close()
			st, err := f.Stat()
			require.NoError(t, err)
			stage, err := checkFile(f, st.Size())
			assert.Equal(t, want, stage, "%v", err)
			if want != "" {
				require.ErrorIs(t, err, ErrCorrupt)
			} else {
				require.NoError(t, err)
			}
		})
	}
}

// checkFile decodes the footer and schema of a file, checks each row group
// against the schema and walks all pages. It returns the stage that failed.
func checkFile(f *os.File, size int64) (string, error) {
	md, err := ReadFooter(f, size)
	if err != nil {
		return "footer", err
	}
	schema, err := NewSchema(md.Schema)
	if err != nil {
		return "schema", err
	}
	for i := range md.RowGroups {
		if err := schema.CheckRowGroup(&md.RowGroups[i]); err != nil {
			return "rowgroup", err
		}
		for j := range md.RowGroups[i].Columns {
			if _, err := walkChunk(f, size, md, &md.RowGroups[i].Columns[j]); err != nil {
				return "walk", err
			}
		}
	}
	return "", nil
}
