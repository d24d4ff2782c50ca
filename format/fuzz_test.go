package format

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// corpusFooters returns the raw footers of the corpus data files, if the
// corpus is present, as fuzz seeds.
func corpusFooters(tb testing.TB) [][]byte {
	dir, ok := testcorpus.Find()
	if !ok {
		return nil
	}
	var out [][]byte
	_ = filepath.WalkDir(filepath.Join(dir, "data"), func(path string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(path, ".parquet") {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			return err
		}
		if b, err := ReadFooterBytes(f, st.Size()); err == nil && len(b) < 1<<16 {
			out = append(out, b)
		}
		return nil
	})
	return out
}

// FuzzDecodeFileMetaData decodes arbitrary bytes: it must not panic, and
// whatever decodes must re-encode stably (encode∘decode is idempotent), so
// the decoder keeps every field it accepts.
func FuzzDecodeFileMetaData(f *testing.F) {
	f.Add(AppendFileMetaData(nil, fullFileMetaData()))
	for _, b := range corpusFooters(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := DecodeFileMetaData(b)
		if err != nil {
			return
		}
		enc := AppendFileMetaData(nil, m)
		m2, err := DecodeFileMetaData(enc)
		if err != nil {
			t.Fatalf("re-decoding our encoding: %v", err)
		}
		if enc2 := AppendFileMetaData(nil, m2); !bytes.Equal(enc, enc2) {
			t.Fatalf("encoding not stable:\n%x\n%x", enc, enc2)
		}
		if s, err := NewSchema(m.Schema); err == nil {
			for i := range m.RowGroups {
				_ = s.CheckRowGroup(&m.RowGroups[i])
			}
		}
	})
}

// FuzzDecodePageHeader decodes arbitrary bytes as a page header into a
// reused PageHeader and checks the consumed length and the re-encoding.
func FuzzDecodePageHeader(f *testing.F) {
	for _, h := range samplePageHeaders() {
		f.Add(AppendPageHeader(nil, &h))
	}
	var h PageHeader
	f.Fuzz(func(t *testing.T, b []byte) {
		n, err := DecodePageHeader(b, &h)
		if err != nil {
			return
		}
		if n <= 0 || n > len(b) {
			t.Fatalf("consumed %d of %d bytes", n, len(b))
		}
		if h.CompressedPageSize < 0 || h.UncompressedPageSize < 0 {
			t.Fatalf("negative size accepted: %+v", h)
		}
		enc := AppendPageHeader(nil, &h)
		var h2 PageHeader
		if _, err := DecodePageHeader(enc, &h2); err != nil {
			t.Fatalf("re-decoding our encoding: %v", err)
		}
		if enc2 := AppendPageHeader(nil, &h2); !bytes.Equal(enc, enc2) {
			t.Fatalf("encoding not stable:\n%x\n%x", enc, enc2)
		}
		// Walk the same bytes as a chunk: must end cleanly.
		w := NewPageWalker(b, ChunkRange{Length: int64(len(b))})
		for w.Next() {
		}
	})
}
