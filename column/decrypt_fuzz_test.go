package column

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pqcodec/pqcodec"
	"github.com/pqcodec/pqcodec/encryption"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// readDigest opens data with p and reads every chunk, returning a digest
// of the levels and values of the chunks that read, by column, and the
// errors of those that did not (nil entries for chunks that read).
func readDigest(data []byte, p *encryption.Properties) ([][32]byte, []error, error) {
	f, err := Open(bytes.NewReader(data), int64(len(data)), WithDecryption(p), WithMaxPageValues(1<<20))
	if err != nil {
		return nil, nil, err
	}
	sums := make([][32]byte, f.NumColumns())
	errs := make([]error, f.NumColumns())
	var page Page
	for col := range f.NumColumns() {
		h := sha256.New()
		for rg := range f.NumRowGroups() {
			r, err := f.Column(rg, col)
			for pages := 0; err == nil; pages++ {
				if err = r.ReadPage(&page); err != nil {
					break
				}
				if pages > len(data) {
					return nil, nil, fmt.Errorf("column %d: more pages than the file has bytes", col)
				}
				binary.Write(h, binary.LittleEndian, int64(page.NumLevels))
				binary.Write(h, binary.LittleEndian, page.DefLevels)
				binary.Write(h, binary.LittleEndian, page.RepLevels)
				for i := range page.Values.Len() {
					fmt.Fprintf(h, "%v|", page.Values.Value(i))
				}
			}
			if err != io.EOF {
				errs[col] = err
				break
			}
		}
		h.Sum(sums[col][:0])
	}
	return sums, errs, nil
}

// allowedDamage reports whether err is an error damaged encrypted bytes may
// cause.
func allowedDamage(err error) bool {
	for _, s := range []error{pqcodec.ErrDecrypt, pqcodec.ErrCorrupt, ErrEncrypted, ErrUnsupported, ErrLimit,
		format.ErrNotParquet, encryption.ErrUnsupported, io.ErrUnexpectedEOF} {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// checkFlip reads data, a damaged copy of an encrypted file, and fails t
// when a chunk the damage could not leave intact reads other values than
// want, or an error outside the taxonomy comes back. authenticated says
// which columns' pages are authenticated (AES-GCM modules): a flip in the
// pages of other columns (plaintext, or AES-CTR) may change their values
// without an error, as the format allows.
func checkFlip(t *testing.T, what string, data []byte, p *encryption.Properties, want [][32]byte, authenticated []bool) {
	sums, errs, err := readDigest(data, p)
	if err != nil {
		if !allowedDamage(err) {
			t.Fatalf("%s: open: error outside the taxonomy: %v", what, err)
		}
		return
	}
	if len(sums) != len(want) {
		t.Fatalf("%s: %d columns, want %d", what, len(sums), len(want))
	}
	for col := range sums {
		switch {
		case errs[col] != nil:
			if !allowedDamage(errs[col]) {
				t.Fatalf("%s: column %d: error outside the taxonomy: %v", what, col, errs[col])
			}
		case authenticated[col] && sums[col] != want[col]:
			t.Fatalf("%s: column %d: other values, and no error", what, col)
		}
	}
}

// authenticatedColumns says which columns of an encrypted file have
// AES-GCM pages.
func authenticatedColumns(t *testing.T, data []byte, p *encryption.Properties) []bool {
	f, err := Open(bytes.NewReader(data), int64(len(data)), WithDecryption(p))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]bool, f.NumColumns())
	for col := range out {
		ci, err := f.ChunkCipher(0, col)
		if err != nil {
			t.Fatal(err)
		}
		out[col] = ci != nil && f.Decryptor().Algorithm() == encryption.AesGcmV1
	}
	return out
}

// TestDecryptFlippedBytes flips each byte of encrypted files in turn (every
// byte of the smaller ones, every 7th otherwise, or every one with
// PQCODEC_LONG set): each read gives an error of the taxonomy or, for the
// columns whose pages are authenticated, the values of the intact file,
// never other values and never a panic.
func TestDecryptFlippedBytes(t *testing.T) {
	step := 7
	if os.Getenv("PQCODEC_LONG") != "" {
		step = 1
	}
	for _, name := range []string{"uniform_encryption.parquet.encrypted", "encrypt_columns_and_footer.parquet.encrypted",
		"encrypt_columns_plaintext_footer.parquet.encrypted", "encrypt_columns_and_footer_ctr.parquet.encrypted",
		"encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted"} {
		t.Run(name, func(t *testing.T) {
			path := testcorpus.Data(t, name)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			p := explicitProps(path)
			want, errs, err := readDigest(data, p)
			if err != nil {
				t.Fatal(err)
			}
			for col, err := range errs {
				if err != nil {
					t.Fatalf("column %d: %v", col, err)
				}
			}
			auth := authenticatedColumns(t, data, p)
			d := bytes.Clone(data)
			for i := 0; i < len(data); i += step {
				for _, x := range []byte{0x01, 0x80} {
					d[i] ^= x
					checkFlip(t, fmt.Sprintf("byte %d ^ %#x", i, x), d, p, want, auth)
					d[i] = data[i]
				}
			}
		})
	}
}

// FuzzDecrypt reads arbitrary bytes, seeded with parquet-testing's
// encrypted files, with their keys: errors of the taxonomy are expected;
// panics, hangs, huge allocations and errors outside it are bugs.
func FuzzDecrypt(f *testing.F) {
	dir, ok := testcorpus.Find()
	if ok {
		files, _ := filepath.Glob(filepath.Join(dir, "data", "*.parquet.encrypted"))
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil && !strings.Contains(p, "bloom") {
				f.Add(b, strings.Contains(p, "disable_aad"))
			}
		}
	}
	f.Add([]byte("PARE\x00\x00\x00\x00PARE"), false)
	f.Fuzz(func(t *testing.T, data []byte, prefix bool) {
		defer guardCPU(10*time.Second, "FuzzDecrypt: input takes over 10s of CPU time")()
		p := explicitProps("")
		p.AADPrefix = nil
		if prefix {
			p.AADPrefix = []byte(testAADPrefix)
		}
		_, errs, err := readDigest(data, p)
		if err != nil {
			if !allowedDamage(err) {
				t.Fatalf("open: error outside the taxonomy: %v", err)
			}
			return
		}
		for col, err := range errs {
			if err != nil && !allowedDamage(err) {
				t.Fatalf("column %d: error outside the taxonomy: %v", col, err)
			}
		}
	})
}

// TestDecryptAlgorithmSwap changes the algorithm of an encrypted footer's
// crypto metadata, which nothing authenticates, from AES_GCM_V1 to
// AES_GCM_CTR_V1: the pages, AES-GCM modules, then decrypt as AES-CTR
// without a tag. The footer and page headers are AES-GCM either way and
// still verify; the pages' bytes come out wrong, and must give errors,
// never values.
func TestDecryptAlgorithmSwap(t *testing.T) {
	for _, name := range []string{"uniform_encryption.parquet.encrypted", "encrypt_columns_and_footer.parquet.encrypted"} {
		path := testcorpus.Data(t, name)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		n := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
		start := len(data) - 8 - n
		if !bytes.HasPrefix(data[start:], []byte{0x1c, 0x1c}) {
			t.Fatalf("%s: crypto metadata starts % x", name, data[start:start+2])
		}
		d := bytes.Clone(data)
		d[start+1] = 0x2c // member 2, AES_GCM_CTR_V1
		p := explicitProps(path)
		auth := authenticatedColumns(t, data, p)
		want, _, err := readDigest(data, p)
		if err != nil {
			t.Fatal(err)
		}
		_, errs, err := readDigest(d, p)
		if err != nil {
			t.Fatal(err)
		}
		for col, err := range errs {
			if auth[col] {
				if err == nil {
					t.Errorf("%s: column %d read with the algorithm swapped", name, col)
				}
				t.Logf("%s column %d: %v", name, col, err)
			}
		}
		checkFlip(t, "swap", d, p, want, auth)
	}
}
