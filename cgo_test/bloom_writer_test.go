package cgotest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
	"github.com/pqcodec/pqcodec/writer"
)

// arrowHashes returns arrow-go's hashes of the values of v, hashed by its
// own typed functions.
func arrowHashes(h metadata.Hasher, v *column.Values) []uint64 {
	var out []uint64
	switch v.Type {
	case format.Int32:
		out = metadata.GetHashes(h, v.Int32s)
	case format.Int64:
		out = metadata.GetHashes(h, v.Int64s)
	case format.Float:
		out = metadata.GetHashes(h, v.Floats)
	case format.Double:
		out = metadata.GetHashes(h, v.Doubles)
	case format.Int96:
		for _, x := range v.Int96s {
			out = append(out, metadata.GetHash(h, parquet.Int96(x)))
		}
	case format.FixedLenByteArray:
		for i := 0; i < v.Len(); i++ {
			out = append(out, metadata.GetHash(h, parquet.FixedLenByteArray(v.Bytes[i*v.TypeLength:(i+1)*v.TypeLength])))
		}
	case format.ByteArray:
		for i := 0; i+1 < len(v.Offsets); i++ {
			out = append(out, metadata.GetHash(h, parquet.ByteArray(v.Bytes[v.Offsets[i]:v.Offsets[i+1]])))
		}
	}
	return out
}

// openArrow opens b with arrow-go, turning its panics into errors.
func openArrow(b []byte) (r *file.Reader, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("arrow-go panics: %v", p)
		}
	}()
	return file.NewParquetReader(bytes.NewReader(b))
}

// TestWriterBloomReadByArrow writes the corpus files with bloom filters and
// reads each chunk's filter with arrow-go: every value of the chunk, hashed
// by arrow-go, passes arrow-go's reading of our filter, and on random
// hashes arrow-go's filter answers as column.File.BloomFilter does.
func TestWriterBloomReadByArrow(t *testing.T) {
	codecs, err := codecfactory.New()
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	_ = filepath.WalkDir("../testdata/foreign", func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".parquet") {
			files = append(files, p)
		}
		return err
	})
	dataDir := filepath.Join(testcorpus.Dir(t), "data")
	for _, rel := range listParquet(t, dataDir) {
		if strings.HasSuffix(rel, ".parquet") && rel != largeFile {
			files = append(files, filepath.Join(dataDir, rel))
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	var nfiles, chunks, values, probes, passed int
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := safeReadOurs(b); err != nil {
			continue
		}
		out, err := rewriteWithWriter(b, writer.WithCodecs(codecs), writer.WithBloomFilter(2000, 0.02))
		if err != nil {
			t.Errorf("%s: write: %v", path, err)
			continue
		}
		ours, err := column.Open(bytes.NewReader(out), int64(len(out)))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if src, err := openArrow(b); err != nil {
			continue // arrow-go cannot read the source (logical types it panics on)
		} else {
			src.Close()
		}
		ar, err := openArrow(out)
		if err != nil {
			t.Errorf("%s: arrow-go: %v", path, err)
			continue
		}
		nfiles++
		bfr := ar.GetBloomFilterReader()
		for g := range ours.NumRowGroups() {
			rg, err := bfr.RowGroup(g)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			for c, leaf := range ours.Schema().Leaves() {
				if *leaf.Element.Type == format.Boolean {
					continue
				}
				abf, err := rg.GetColumnBloomFilter(c)
				if err != nil || abf == nil {
					t.Errorf("%s: row group %d column %d: arrow-go reads no filter: %v", path, g, c, err)
					continue
				}
				obf, err := ours.BloomFilter(g, c)
				if err != nil {
					t.Fatal(err)
				}
				chunks++
				var v column.Values
				tl := 0
				if leaf.Element.TypeLength != nil {
					tl = int(*leaf.Element.TypeLength)
				}
				v.Reset(*leaf.Element.Type, tl)
				var def, rep []int16
				cr, err := ours.Column(g, c)
				if err != nil {
					t.Fatal(err)
				}
				var p column.Page
				for {
					err := cr.ReadPage(&p)
					if errors.Is(err, io.EOF) {
						break
					}
					if err != nil {
						t.Fatal(err)
					}
					appendBatch(&v, &def, &rep, &p)
				}
				for k, h := range arrowHashes(abf.Hasher(), &v) {
					values++
					if !abf.CheckHash(h) {
						t.Fatalf("%s: row group %d column %v: value %d rejected by arrow-go", path, g, leaf.Path(), k)
					}
				}
				for range 100 {
					h := r.Uint64()
					probes++
					if a, o := abf.CheckHash(h), obf.Check(h); a != o {
						t.Fatalf("%s: row group %d column %v: hash %#x: arrow-go %v, ours %v", path, g, leaf.Path(), h, a, o)
					} else if a {
						passed++
					}
				}
			}
		}
		ar.Close()
	}
	t.Logf("%d files, %d chunks: %d values pass arrow-go's reading of our filters; it agrees with ours on %d random hashes (%d pass)", nfiles, chunks, values, probes, passed)
	if nfiles < 100 || values == 0 {
		t.Fatalf("only %d files, %d values", nfiles, values)
	}
}
