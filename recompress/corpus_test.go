package recompress_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"hash"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
	"github.com/pqcodec/pqcodec/recompress"
)

// allCodecs are the codecs this build can write (the twin of cmd/pqcodec's
// writableCodecs test helper).
func allCodecs(t testing.TB) []codecfactory.Codec {
	f, err := codecfactory.New()
	require.NoError(t, err)
	var cs []codecfactory.Codec
	for c := codecfactory.Uncompressed; c <= codecfactory.Lz4Raw; c++ {
		if f.CanCompress(c) {
			cs = append(cs, c)
		}
	}
	return cs
}

func corpusFiles(t *testing.T) []string { return testcorpus.Files(t, "data") }

// digest reads every column chunk of the file in b with the column reader
// and returns a hash of its levels and values per chunk, or the first error.
func digest(b []byte, opts ...column.Option) ([][]byte, error) {
	f, err := column.Open(bytes.NewReader(b), int64(len(b)), opts...)
	if err != nil {
		return nil, err
	}
	var out [][]byte
	var p column.Page
	for rg := range f.NumRowGroups() {
		for col := range f.NumColumns() {
			r, err := f.Column(rg, col)
			if err != nil {
				return nil, err
			}
			h := sha256.New()
			for {
				err := r.ReadPage(&p)
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					return nil, err
				}
				hashPage(h, &p)
			}
			out = append(out, h.Sum(nil))
		}
	}
	return out, nil
}

func hashPage(h hash.Hash, p *column.Page) {
	w := func(v any) { _ = binary.Write(h, binary.LittleEndian, v) }
	v := &p.Values
	w(int64(p.NumLevels))
	w(int64(p.Encoding))
	w(int64(len(p.DefLevels)))
	w(p.DefLevels)
	w(int64(len(p.RepLevels)))
	w(p.RepLevels)
	w(int64(v.Len()))
	w(v.Booleans)
	w(v.Int32s)
	w(v.Int64s)
	w(v.Int96s)
	w(v.Floats)
	w(v.Doubles)
	w(v.Bytes)
	w(v.Offsets)
}

// skipLarge skips the corpus file with two 1 GiB pages unless asked for.
func skipLarge(t *testing.T, name string) {
	if name == "large_string_map.brotli.parquet" && os.Getenv("PQCODEC_LARGE") == "" {
		t.Skip("two 1 GiB pages; set PQCODEC_LARGE=1 to rewrite them")
	}
}

// corruptChecksum are corpus files with a page whose CRC does not match.
var corruptChecksum = map[string]bool{
	"datapage_v1-corrupt-checksum.parquet":           true,
	"rle-dict-uncompressed-corrupt-checksum.parquet": true,
}

// TestCorpus rewrites every parquet-testing file to every codec this build
// can write and checks that the output verifies and reads back, through the
// column reader, to the same levels and values as the source. Without
// PQCODEC_LONG it rewrites each file to ZSTD and to one more codec, chosen
// by rotation, so every codec is covered in a short run.
func TestCorpus(t *testing.T) {
	codecs := allCodecs(t)
	long := os.Getenv("PQCODEC_LONG") != ""
	for i, path := range corpusFiles(t) {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			skipLarge(t, name)
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			want, wantErr := digest(src)
			run := codecs
			if !long {
				run = []codecfactory.Codec{codecfactory.Zstd, codecs[i%len(codecs)]}
			}
			for _, c := range run {
				var out bytes.Buffer
				res, err := recompress.Rewrite(&out, bytes.NewReader(src), int64(len(src)),
					recompress.WithCodec(recompress.Target{Codec: c}))
				if corruptChecksum[name] {
					require.ErrorIs(t, err, recompress.ErrChecksum)
					continue
				}
				require.NoError(t, err, "%v", c)
				require.EqualValues(t, out.Len(), res.BytesOut)
				require.NoError(t, recompress.Verify(bytes.NewReader(src), int64(len(src)),
					bytes.NewReader(out.Bytes()), int64(out.Len()), nil), "%v", c)
				got, gotErr := digest(out.Bytes())
				if wantErr != nil {
					require.Error(t, gotErr, "source fails to read (%v), output reads", wantErr)
					continue
				}
				require.NoError(t, gotErr, "%v", c)
				require.Equal(t, want, got, "%v", c)
			}
		})
	}
}

// TestReaderParity damages real files (byte flips and cuts, mostly in page
// headers and bodies) and checks that every mutant the column reader reads
// in full is rewritten too, reading back to the same levels and values:
// rewrite accepts what the reader accepts (source checksums off, since the
// reader checks them only on request).
func TestReaderParity(t *testing.T) {
	names := []string{"alltypes_plain.snappy.parquet", "datapage_v2.snappy.parquet", "alltypes_tiny_pages_plain.parquet",
		"nested_lists.snappy.parquet", "dict-page-offset-zero.parquet", "delta_length_byte_array.parquet",
		"datapage_v2_empty_datapage.snappy.parquet", "page_v2_empty_compressed.parquet"}
	trials := 100
	if testing.Short() {
		trials = 30
	}
	rng := rand.New(rand.NewPCG(29, 29))
	readable := 0
	for _, name := range names {
		orig := readCorpus(t, name)
		for i := range trials {
			b := bytes.Clone(orig)
			switch i % 4 {
			case 3: // the footer: offsets, sizes and counts of the chunks
				n := int(binary.LittleEndian.Uint32(b[len(b)-8:]))
				if n > 0 && n < len(b)-8 {
					b[len(b)-8-n+rng.IntN(n)] ^= byte(1 << rng.IntN(8))
				}
			case 0:
				b[rng.IntN(len(b)/2)] ^= byte(1 << rng.IntN(8))
			case 1:
				for range 1 + rng.IntN(3) {
					b[rng.IntN(len(b))] = byte(rng.IntN(256))
				}
			case 2:
				at := rng.IntN(len(b) / 2)
				b = append(b[:at:at], b[at+1+rng.IntN(8):]...)
			}
			want, err := digest(b)
			if err != nil {
				continue
			}
			readable++
			var out bytes.Buffer
			_, err = recompress.Rewrite(&out, bytes.NewReader(b), int64(len(b)),
				recompress.WithCodec(recompress.Target{Codec: codecfactory.Zstd}), recompress.WithSourceChecksums(false), recompress.WithWorkers(1))
			if errors.Is(err, recompress.ErrEncrypted) {
				// A footer now naming an encryption algorithm (plaintext
				// footer mode): the reader reads the plaintext chunks;
				// rewrite cannot keep the footer's signature valid and
				// refuses the file, which is not damage.
				continue
			}
			require.NoError(t, err, "%s trial %d: the reader reads it, rewrite refuses it", name, i)
			got, err := digest(out.Bytes())
			require.NoError(t, err, "%s trial %d", name, i)
			require.Equal(t, want, got, "%s trial %d", name, i)
		}
	}
	t.Logf("%d readable mutants rewritten", readable)
	require.Greater(t, readable, 100)
}
