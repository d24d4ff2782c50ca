package main

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testfile"
	"github.com/pqcodec/pqcodec/recompress"
)

// writableCodecs are the codecs this build can write (the twin of
// recompress's allCodecs test helper).
func writableCodecs(t testing.TB) []codecfactory.Codec {
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

// TestForeignRewrite rewrites every file of the foreign-writer corpus to
// ZSTD and to one more codec, chosen by rotation so that every codec this
// build can write is covered, and checks that each output passes
// recompress.Verify and reads back, through the code of `pqcodec cat`, to
// the rows the file's writer gave.
func TestForeignRewrite(t *testing.T) {
	codecs := writableCodecs(t)
	writers, err := os.ReadDir(foreignDir)
	require.NoError(t, err, "the foreign-writer corpus is part of the repository")
	dir := t.TempDir()
	n := 0
	covered := make(map[codecfactory.Codec]bool)
	for _, w := range writers {
		if !w.IsDir() {
			continue
		}
		wdir := filepath.Join(foreignDir, w.Name())
		entries, err := readManifest(wdir)
		require.NoError(t, err, w.Name())
		for _, e := range entries {
			name := w.Name() + "/" + e.file
			if _, known := knownForeignFailures[name]; known {
				continue
			}
			run := []codecfactory.Codec{codecfactory.Zstd, codecs[n%len(codecs)]}
			n++
			t.Run(name, func(t *testing.T) {
				want, err := os.ReadFile(filepath.Join(wdir, e.rows))
				require.NoError(t, err)
				src, err := os.ReadFile(filepath.Join(wdir, e.file))
				require.NoError(t, err)
				for _, c := range run {
					var out bytes.Buffer
					res, err := recompress.Rewrite(&out, bytes.NewReader(src), int64(len(src)),
						recompress.WithCodec(recompress.Target{Codec: c}))
					require.NoError(t, err, "%s to %v", name, c)
					require.EqualValues(t, out.Len(), res.BytesOut)
					require.NoError(t, recompress.Verify(bytes.NewReader(src), int64(len(src)),
						bytes.NewReader(out.Bytes()), int64(out.Len()), nil), "%s to %v", name, c)
					path := filepath.Join(dir, c.String()+".parquet")
					require.NoError(t, os.WriteFile(path, out.Bytes(), 0o644))
					got, err := catFile(path)
					require.NoError(t, err, "%s to %v (%s)", name, c, e.options)
					if msg := firstDifference(got, want); msg != "" {
						t.Fatalf("%s to %v (%s): %s", name, c, e.options, msg)
					}
					covered[c] = true
				}
			})
		}
	}
	require.NotZero(t, n, "no files in the foreign-writer corpus")
	for _, c := range codecs {
		require.True(t, covered[c], "no file rewritten to %v", c)
	}
	t.Logf("%d foreign files rewritten to ZSTD and one of %v", n, codecs)
}

// v2SizeFiles writes to dir the two shapes of data page v2 whose values
// section is stored uncompressed with another size than the header says,
// which cat reads as parquet-java, arrow-cpp, arrow-rs and DuckDB do
// (READING.md): uncompressed_page_size 8 for 12 bytes of values, and 1 for a
// page of 2 level bytes and 12 of values.
func v2SizeFiles(t *testing.T, dir string) []string {
	var values []byte
	for _, v := range []uint32{4, 5, 6} {
		values = binary.LittleEndian.AppendUint32(values, v)
	}
	h := format.PageHeader{
		Type: format.DataPageV2, HasDataPageHeaderV2: true, UncompressedPageSize: 8,
		DataPageHeaderV2: format.DataPageHeaderV2{NumValues: 3, NumRows: 3, Encoding: format.Plain, HasIsCompressed: true},
	}
	h2 := h
	h2.UncompressedPageSize = 1
	h2.DataPageHeaderV2.DefinitionLevelsByteLength = 2
	var paths []string
	for i, c := range []struct {
		rep  format.FieldRepetitionType
		page []byte
	}{
		{format.Required, testfile.Page(h, values)},
		{format.Optional, testfile.Page(h2, append([]byte{1<<1 | 1, 0b111}, values...))},
	} {
		leaf := format.SchemaElement{Name: "a", Type: ptr(format.Int32), RepetitionType: ptr(c.rep)}
		schema := []format.SchemaElement{{Name: "root", NumChildren: ptr[int32](1)}, leaf}
		chunk := testfile.Chunk{Pages: [][]byte{c.page}, Meta: format.ColumnMetaData{
			Type: format.Int32, PathInSchema: []string{"a"}, Codec: format.Uncompressed, NumValues: 3,
			Encodings: []format.Encoding{format.Plain, format.RLE},
		}}
		p := filepath.Join(dir, "v2size"+strconv.Itoa(i)+".parquet")
		require.NoError(t, os.WriteFile(p, testfile.File(schema, 3, []testfile.Chunk{chunk}, nil), 0o644))
		paths = append(paths, p)
	}
	return paths
}

// TestRewriteEveryFileCatReads runs `pqcodec rewrite` (to ZSTD, verified) on
// every file of testdata/foreign and of parquet-testing's data/ and
// bad_data/ that `pqcodec cat` reads, and on the data page v2 shapes of
// v2SizeFiles, and checks that the rewrite succeeds and that cat prints the
// output exactly as it prints the source: rewrite accepts what cat accepts
// (one set of leniency rules, READING.md). The one exception is a page
// whose CRC does not match: cat does not check CRCs unless asked, rewrite
// refuses to give such a page a fresh valid checksum unless run with
// --source-crc=false, and then rewrites it too.
func TestRewriteEveryFileCatReads(t *testing.T) {
	dir := t.TempDir()
	files, err := filepath.Glob(filepath.Join(foreignDir, "*", "*.parquet"))
	require.NoError(t, err)
	files = append(files, corpusFiles(t, "data")...)
	files = append(files, corpusFiles(t, "bad_data")...)
	files = append(files, v2SizeFiles(t, dir)...)
	rewritten, refusedByCat, badCRC := 0, 0, 0
	for i, in := range files {
		if filepath.Base(in) == "large_string_map.brotli.parquet" {
			continue // two 1 GiB pages
		}
		want, err := catFile(in)
		if err != nil {
			refusedByCat++
			continue
		}
		out := filepath.Join(dir, strconv.Itoa(i)+".parquet")
		_, stderr, status := runCmd("rewrite", in, out, "--codec", "zstd", "--workers", "2")
		if status != exitOK && strings.Contains(stderr, "checksum mismatch") {
			badCRC++
			_, stderr, status = runCmd("rewrite", in, out, "--codec", "zstd", "--workers", "2", "--source-crc=false")
		}
		require.Equal(t, exitOK, status, "cat reads %s, rewrite refuses it: %s", in, stderr)
		got, err := catFile(out)
		require.NoError(t, err, in)
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: the rewritten file cats differently: %s", in, firstDifference(got, want))
		}
		require.NoError(t, os.Remove(out))
		rewritten++
	}
	t.Logf("%d files rewritten (%d with --source-crc=false), %d that cat refuses skipped", rewritten, badCRC, refusedByCat)
	require.Greater(t, rewritten, 170)
	require.Equal(t, 2, badCRC) // datapage_v1-corrupt-checksum, rle-dict-uncompressed-corrupt-checksum
}
