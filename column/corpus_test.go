package column

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/encoding/rle"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/levelscan"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// openFile opens a corpus file with opts; the file is closed with the test.
func openFile(t testing.TB, path string, opts ...Option) (*File, error) {
	t.Helper()
	fh, err := os.Open(path)
	require.NoError(t, err)
	t.Cleanup(func() { fh.Close() })
	st, err := fh.Stat()
	require.NoError(t, err)
	return Open(fh, st.Size(), opts...)
}

// chunkSummary is what reading one column chunk found.
type chunkSummary struct {
	levels, values, records int
}

// readChunk reads every page of a column chunk with one reused Page.
func readChunk(f *File, rg, col int, p *Page) (chunkSummary, error) {
	var s chunkSummary
	r, err := f.Column(rg, col)
	if err != nil {
		return s, err
	}
	for {
		err := r.ReadPage(p)
		if errors.Is(err, io.EOF) {
			return s, nil
		}
		if err != nil {
			return s, err
		}
		s.levels += p.NumLevels
		s.values += p.Values.Len()
		if len(p.RepLevels) == 0 {
			s.records += p.NumLevels
		} else {
			s.records += levelscan.CountEqual(p.RepLevels, 0)
		}
	}
}

// readAll reads every chunk of f, failing on the first error.
func readAll(f *File) error {
	var p Page
	for rg := range f.NumRowGroups() {
		for col := range f.NumColumns() {
			if _, err := readChunk(f, rg, col, &p); err != nil {
				return err
			}
		}
	}
	return nil
}

// corpusFiles lists the .parquet and .parquet.encrypted files under the
// corpus directory sub.
func corpusFiles(t *testing.T, sub string) []string {
	return testcorpus.Files(t, sub, ".parquet", ".parquet.encrypted")
}

// TestCorpusData reads every column chunk of every file in data/ and checks
// the counts the pages must agree with: levels per chunk equal the chunk's
// num_values, and records (repetition level 0) per chunk equal the row
// group's num_rows. Value-by-value comparison with other implementations is
// in cgo_test/.
func TestCorpusData(t *testing.T) {
	for _, path := range corpusFiles(t, "data") {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			if name == "large_string_map.brotli.parquet" && os.Getenv("PQCODEC_LARGE") == "" {
				t.Skip("two 1 GiB pages (minutes under -race); set PQCODEC_LARGE=1 to read them")
			}
			f, err := openFile(t, path)
			if strings.HasSuffix(name, ".encrypted") {
				if err == nil {
					err = readAll(f)
				}
				require.ErrorIs(t, err, ErrEncrypted)
				return
			}
			require.NoError(t, err)
			var p Page
			for rg := range f.NumRowGroups() {
				group := &f.MetaData().RowGroups[rg]
				for col := range f.NumColumns() {
					s, err := readChunk(f, rg, col, &p)
					require.NoError(t, err, "row group %d column %d", rg, col)
					assert.EqualValues(t, group.Columns[col].MetaData.NumValues, s.levels, "levels of column %d", col)
					assert.LessOrEqual(t, s.values, s.levels)
					rows := group.NumRows
					if name == "repeated_no_annotation.parquet" {
						rows = 6 // its footer says 0 rows; its pages hold 6 records (CATALOG.md)
					}
					assert.EqualValues(t, rows, s.records, "records of column %d", col)
				}
			}
		})
	}
}

// TestCorpusBadData checks that every file in bad_data/ gives the error its
// defect calls for (bad_data/README.md says what each one reproduces), and
// never a panic.
func TestCorpusBadData(t *testing.T) {
	want := map[string]error{
		"ARROW-GH-41317.parquet":              format.ErrCorrupt, // a chunk's path differs from the schema
		"ARROW-GH-41321.parquet":              rle.ErrCorrupt,    // fewer levels than num_values
		"ARROW-GH-45185.parquet":              ErrCorrupt,        // repetition levels start with 1
		"ARROW-GH-47662.parquet":              ErrCorrupt,        // nulls in a required column: values section too short
		"ARROW-RS-GH-6229-DICTHEADER.parquet": format.ErrCorrupt, // negative dictionary value count
		"ARROW-RS-GH-6229-LEVELS.parquet":     ErrCorrupt,        // too few repetition levels
		"PARQUET-1481.parquet":                format.ErrCorrupt, // corrupted physical type in the schema
		// ARROW-GH-43605.parquet is not an error: dictionary indices with
		// bit width 0 are all 0, a legal encoding that Arrow now reads.
		"ARROW-GH-43605.parquet": nil,
	}
	for _, path := range corpusFiles(t, "bad_data") {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			expect, ok := want[name]
			require.True(t, ok, "no expectation for %s: add one", name)
			f, err := openFile(t, path)
			if err == nil {
				err = readAll(f)
			}
			if expect == nil {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, expect)
			t.Logf("%s: %v", name, err)
		})
	}
}

func TestChecksums(t *testing.T) {
	for _, tc := range []struct {
		name    string
		corrupt bool
	}{
		{"datapage_v1-corrupt-checksum.parquet", true},
		{"rle-dict-uncompressed-corrupt-checksum.parquet", true},
		{"datapage_v1-uncompressed-checksum.parquet", false},
		{"datapage_v1-snappy-compressed-checksum.parquet", false},
		{"plain-dict-uncompressed-checksum.parquet", false},
		{"rle-dict-snappy-checksum.parquet", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := testcorpus.Data(t, tc.name)
			f, err := openFile(t, path, WithVerifyChecksums(true))
			require.NoError(t, err)
			err = readAll(f)
			if tc.corrupt {
				require.ErrorIs(t, err, ErrChecksum)
				var pe *PageError
				require.ErrorAs(t, err, &pe)
			} else {
				require.NoError(t, err)
			}
			f, err = openFile(t, path)
			require.NoError(t, err)
			require.NoError(t, readAll(f), "without checksum verification")
		})
	}
}

// TestZeroAllocs reads whole files, every chunk, with one reused Reader and
// Page: once warm, no allocation.
func TestZeroAllocs(t *testing.T) {
	for _, name := range []string{
		"alltypes_tiny_pages.parquet",          // uncompressed, dictionary, many pages
		"alltypes_plain.snappy.parquet",        // snappy
		"delta_byte_array.parquet",             // v2, DELTA_BYTE_ARRAY
		"byte_stream_split.zstd.parquet",       // zstd, BYTE_STREAM_SPLIT
		"hadoop_lz4_compressed_larger.parquet", // Hadoop LZ4
		"nested_lists.snappy.parquet",          // repetition levels
	} {
		t.Run(name, func(t *testing.T) {
			f, err := openFile(t, testcorpus.Data(t, name))
			require.NoError(t, err)
			var r Reader
			var p Page
			read := func() {
				for rg := range f.NumRowGroups() {
					for col := range f.NumColumns() {
						require.NoError(t, f.ResetReader(&r, rg, col))
						for {
							err := r.ReadPage(&p)
							if err == io.EOF {
								break
							}
							require.NoError(t, err)
						}
					}
				}
			}
			read()
			read()
			// 20 runs, not fewer: testing.AllocsPerRun counts the whole
			// process and rounds its average down, so up to 19 allocations
			// of the runtime's own (a new OS thread costs about 4 when a
			// read blocks in a syscall) cannot fail the check, while one
			// allocation per page read still does.
			assert.Zero(t, testing.AllocsPerRun(20, read))
		})
	}
}
