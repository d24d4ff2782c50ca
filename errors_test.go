package pqcodec_test

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec"
	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/encoding/bitpacked"
	"github.com/pqcodec/pqcodec/encoding/bytestreamsplit"
	"github.com/pqcodec/pqcodec/encoding/delta"
	"github.com/pqcodec/pqcodec/encoding/dictionary"
	"github.com/pqcodec/pqcodec/encoding/plain"
	"github.com/pqcodec/pqcodec/encoding/rle"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
	nbrotli "github.com/pqcodec/pqcodec/native/brotli"
	ndeflate "github.com/pqcodec/pqcodec/native/deflate"
	nlzo "github.com/pqcodec/pqcodec/native/lzo"
	nzstd "github.com/pqcodec/pqcodec/native/zstd"
	"github.com/pqcodec/pqcodec/recompress"
	"github.com/pqcodec/pqcodec/rows"
	"github.com/pqcodec/pqcodec/stats"
)

// sentinels are the error texts of every damaged-input sentinel; no message
// may repeat one.
var sentinels = []error{
	pqcodec.ErrCorrupt, format.ErrCorrupt, codecfactory.ErrCorrupt, codecfactory.ErrSizeMismatch,
	column.ErrCorrupt, column.ErrChecksum, rle.ErrCorrupt, dictionary.ErrCorrupt, plain.ErrCorrupt,
	delta.ErrCorrupt, bitpacked.ErrCorrupt, bytestreamsplit.ErrCorrupt, nzstd.ErrCorrupt,
	nbrotli.ErrCorrupt, ndeflate.ErrCorrupt, nlzo.ErrCorrupt, rows.ErrCorrupt, stats.ErrCorrupt,
	recompress.ErrCorrupt, recompress.ErrChecksum,
}

// TestSentinelsMatchRoot checks that every damaged-input sentinel of every
// package matches pqcodec.ErrCorrupt, and that the errors that are not
// damage do not.
func TestSentinelsMatchRoot(t *testing.T) {
	for _, s := range sentinels {
		require.ErrorIs(t, s, pqcodec.ErrCorrupt, s.Error())
	}
	for _, s := range append(notDamage, column.ErrRange, column.ErrNoColumn, rows.ErrNoColumn,
		recompress.ErrOption, recompress.ErrUnsupported, recompress.ErrEncrypted, recompress.ErrMismatch) {
		require.NotErrorIs(t, s, pqcodec.ErrCorrupt, s.Error())
	}
	require.Same(t, column.ErrNoColumn, rows.ErrNoColumn) // one sentinel
}

// notDamage are the errors damaged bytes may legitimately cause without
// being reported as corrupt: a limit reached, a feature not supported (an
// unknown encoding or codec number may come from a newer writer), or a file
// that is not Parquet at all.
var notDamage = []error{
	column.ErrLimit, column.ErrUnsupported, column.ErrEncrypted, codecfactory.ErrPageTooLarge,
	codecfactory.ErrUnknownCodec, format.ErrNotParquet, recompress.ErrUnsupported, recompress.ErrEncrypted,
}

// checkTaxonomy fails t unless err is nil, matches pqcodec.ErrCorrupt (or,
// when allowed, a notDamage error) and repeats no sentinel's text.
func checkTaxonomy(t *testing.T, what string, err error, allowNotDamage bool) {
	t.Helper()
	if err == nil {
		return
	}
	msg := err.Error()
	for _, s := range sentinels {
		if strings.Count(msg, s.Error()) > 1 {
			t.Errorf("%s: message repeats %q: %s", what, s.Error(), msg)
		}
	}
	if errors.Is(err, pqcodec.ErrCorrupt) {
		return
	}
	if allowNotDamage {
		for _, nd := range notDamage {
			if errors.Is(err, nd) {
				return
			}
		}
	}
	t.Errorf("%s: error does not match pqcodec.ErrCorrupt: %v", what, err)
}

// readAll reads every page of every chunk of the size-byte file r.
func readAll(r io.ReaderAt, size int64, verify bool) error {
	f, err := column.Open(r, size, column.WithVerifyChecksums(verify))
	if err != nil {
		return err
	}
	var p column.Page
	var cr column.Reader
	for rg := range f.NumRowGroups() {
		for col := range f.NumColumns() {
			if err := f.ResetReader(&cr, rg, col); err != nil {
				return err
			}
			for {
				err := cr.ReadPage(&p)
				if err == io.EOF {
					break
				}
				if err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// readRows reads every row of the size-byte file r with package rows.
func readRows(r io.ReaderAt, size int64) error {
	f, err := column.Open(r, size)
	if err != nil {
		return err
	}
	rr, err := rows.NewReader(f)
	if err != nil {
		return err
	}
	var buf []byte
	for {
		buf, err = rr.AppendRow(buf[:0])
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readStats reads the statistics and page statistics of every chunk of the
// size-byte file r; damaged statistics are reported in BadMinMax, which
// must match pqcodec.ErrCorrupt too.
func readStats(t *testing.T, what string, r io.ReaderAt, size int64) error {
	f, err := column.Open(r, size)
	if err != nil {
		return err
	}
	var firstErr error
	for rg := range f.NumRowGroups() {
		for col := range f.NumColumns() {
			s, err := f.Stats(rg, col)
			if err == nil && s.BadMinMax != nil {
				checkTaxonomy(t, what+" BadMinMax", s.BadMinMax, false)
			}
			if err == nil {
				_, err = f.MatchingRows(rg, col, func(s stats.Stats) bool {
					if s.BadMinMax != nil {
						checkTaxonomy(t, what+" page BadMinMax", s.BadMinMax, false)
					}
					return true
				})
			}
			if err != nil && firstErr == nil {
				firstErr = err
			}
		}
	}
	return firstErr
}

// rewrite recompresses the size-byte file r to zstd, checking source CRCs.
func rewrite(r io.ReaderAt, size int64) error {
	_, err := recompress.Rewrite(io.Discard, r, size, recompress.WithCodec(recompress.Target{Codec: codecfactory.Zstd, Level: 1}),
		recompress.WithSourceChecksums(true), recompress.WithWorkers(1))
	return err
}

// TestTaxonomyBadData checks that every bad_data/ file the column reader,
// rows, stats or recompress rejects does so with an error matching
// pqcodec.ErrCorrupt.
func TestTaxonomyBadData(t *testing.T) {
	dir := filepath.Join(testcorpus.Dir(t), "bad_data")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	rejected, rejectedBy := 0, map[string]int{}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".parquet") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		err = readAll(bytes.NewReader(b), int64(len(b)), true)
		if err != nil {
			rejected++
		}
		checkTaxonomy(t, e.Name(), err, false)
		for layer, err := range map[string]error{
			"rows":       readRows(bytes.NewReader(b), int64(len(b))),
			"stats":      readStats(t, e.Name(), bytes.NewReader(b), int64(len(b))),
			"recompress": rewrite(bytes.NewReader(b), int64(len(b))),
		} {
			if err != nil {
				rejectedBy[layer]++
			}
			checkTaxonomy(t, e.Name()+" "+layer, err, false)
		}
	}
	t.Logf("rejected: column %d, others %v", rejected, rejectedBy)
	require.Greater(t, rejected, 5)
	require.Greater(t, rejectedBy["rows"], 5)
	require.Greater(t, rejectedBy["recompress"], 2)
}

// TestTaxonomyMutations damages real files (deterministic byte flips and
// truncations of the footer, page headers and page bodies) and checks that
// every error is corrupt, a limit or unsupported, and repeats no sentinel.
func TestTaxonomyMutations(t *testing.T) {
	names := []string{
		"alltypes_plain.snappy.parquet", "alltypes_tiny_pages.parquet", "delta_byte_array.parquet",
		"byte_stream_split.zstd.parquet", "hadoop_lz4_compressed_larger.parquet", "nested_lists.snappy.parquet",
		"lz4_raw_compressed.parquet", "concatenated_gzip_members.parquet", "datapage_v2.snappy.parquet",
		"delta_length_byte_array.parquet", "dict-page-offset-zero.parquet",
	}
	trials := 300
	if testing.Short() {
		trials = 60
	}
	rng := rand.New(rand.NewPCG(15, 15))
	corrupt, otherCorrupt := 0, 0
	for _, name := range names {
		orig, err := os.ReadFile(testcorpus.Data(t, name))
		require.NoError(t, err)
		require.NoError(t, readAll(bytes.NewReader(orig), int64(len(orig)), true), name)
		for i := range trials {
			b := bytes.Clone(orig)
			switch i % 3 {
			case 0: // flip a few bytes anywhere
				for range 1 + rng.IntN(4) {
					b[rng.IntN(len(b))] ^= byte(1 + rng.IntN(255))
				}
			case 1: // flip one byte in the first half (page headers and bodies)
				b[rng.IntN(len(b)/2)] ^= byte(1 << rng.IntN(8))
			case 2: // cut a range out of the middle, keeping the footer
				at := rng.IntN(len(b) / 2)
				b = append(b[:at:at], b[at+1+rng.IntN(16):]...)
			}
			// Half the trials skip checksums, so damage reaches the codecs
			// and decoders below.
			err := readAll(bytes.NewReader(b), int64(len(b)), i%2 == 0)
			if errors.Is(err, pqcodec.ErrCorrupt) {
				corrupt++
			}
			checkTaxonomy(t, name+" trial "+strconv.Itoa(i), err, true)
			// The other layers on every fifth trial: rows, statistics and
			// page indexes, recompress.
			if i%5 == 0 {
				what := name + " trial " + strconv.Itoa(i)
				err := readRows(bytes.NewReader(b), int64(len(b)))
				if errors.Is(err, pqcodec.ErrCorrupt) {
					otherCorrupt++
				}
				checkTaxonomy(t, what+" rows", err, true)
				checkTaxonomy(t, what+" stats", readStats(t, what, bytes.NewReader(b), int64(len(b))), true)
				err = rewrite(bytes.NewReader(b), int64(len(b)))
				if errors.Is(err, pqcodec.ErrCorrupt) {
					otherCorrupt++
				}
				checkTaxonomy(t, what+" recompress", err, true)
			}
		}
	}
	require.Greater(t, corrupt, trials)
	require.Greater(t, otherCorrupt, trials/5)
}

// TestTaxonomyFuzzCorpora feeds the committed fuzz inputs (testdata/fuzz of
// every package) and the damaged samples below to the decoder of each layer,
// checking that each error matches pqcodec.ErrCorrupt.
func TestTaxonomyFuzzCorpora(t *testing.T) {
	f, err := codecfactory.New()
	require.NoError(t, err)
	decoders := map[string]func(b []byte) error{
		"format": func(b []byte) error {
			var h format.PageHeader
			_, err := format.DecodePageHeader(b, &h)
			return err
		},
		"footer": func(b []byte) error {
			_, err := format.DecodeFileMetaData(b)
			return err
		},
		"rle": func(b []byte) error {
			_, err := rle.Decode(nil, b, 3, 100)
			return err
		},
		"plain": func(b []byte) error {
			_, _, err := plain.DecodeByteArray(nil, nil, b)
			return err
		},
		"delta": func(b []byte) error {
			_, err := delta.DecodeInt64(nil, b)
			return err
		},
		"delta-bytes": func(b []byte) error {
			_, _, err := delta.DecodeByteArray(nil, nil, b)
			return err
		},
		"bitpacked": func(b []byte) error {
			_, _, err := bitpacked.Decode(nil, b, 3, 100)
			return err
		},
	}
	for _, c := range []codecfactory.Codec{codecfactory.Snappy, codecfactory.Gzip, codecfactory.Lzo,
		codecfactory.Brotli, codecfactory.Lz4, codecfactory.Zstd, codecfactory.Lz4Raw} {
		decoders[c.String()] = func(b []byte) error {
			_, err := f.Decompress(c, nil, b, 100)
			return err
		}
	}
	var inputs [][]byte
	root := "."
	require.NoError(t, filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.Contains(filepath.ToSlash(p), "testdata/fuzz/") {
			return err
		}
		inputs = append(inputs, fuzzInputs(t, p)...)
		return nil
	}))
	require.NotEmpty(t, inputs)
	// Damaged samples every layer sees: truncated headers, length prefixes
	// past the end, reserved values.
	inputs = append(inputs, []byte{0xff}, []byte{0x15, 0x00}, []byte{0xff, 0xff, 0xff, 0xff, 0x0f},
		[]byte{0x28, 0xb5, 0x2f, 0xfd, 0x00}, []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff},
		bytes.Repeat([]byte{0xa5}, 64), []byte{0, 0, 0, 100, 0, 0, 0, 2, 0xf0, 0xff})
	for name, dec := range decoders {
		for i, in := range inputs {
			checkTaxonomy(t, name+" input "+strconv.Itoa(i), dec(in), true)
		}
	}
}

// fuzzInputs returns the []byte values of a "go test fuzz v1" file.
func fuzzInputs(t *testing.T, path string) [][]byte {
	fh, err := os.Open(path)
	require.NoError(t, err)
	defer fh.Close()
	var out [][]byte
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if s, ok := strings.CutPrefix(line, "[]byte("); ok {
			if v, err := strconv.Unquote(strings.TrimSuffix(s, ")")); err == nil {
				out = append(out, []byte(v))
			}
		}
	}
	return out
}
