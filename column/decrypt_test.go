package column

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec"
	"github.com/pqcodec/pqcodec/bloom"
	"github.com/pqcodec/pqcodec/encryption"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// The keys of parquet-testing's encrypted files (data/README.md): key ids
// "kf" (footer), "kc1" (double_field), "kc2" (float_field), and in
// data/aes256 "kc3" to "kc8" for the other columns; the AAD prefix of the
// _aad and _disable_aad_storage files is "tester" (arrow-go's and
// arrow-cpp's read-configurations tests use the same).
var (
	testKeys128 = map[string]string{"kf": "0123456789012345", "kc1": "1234567890123450", "kc2": "1234567890123451"}
	testKeys256 = map[string]string{"kf": "01234567890123456789012345678901",
		"kc1": "12345678901234567890123456789012", "kc2": "12345678901234567890123456789013",
		"kc3": "12345678901234567890123456789014", "kc4": "12345678901234567890123456789015",
		"kc5": "12345678901234567890123456789016", "kc6": "12345678901234567890123456789017",
		"kc7": "12345678901234567890123456789018", "kc8": "12345678901234567890123456789019"}
	// testKeyColumns names the column of each column key id.
	testKeyColumns = map[string]string{"kc1": "double_field", "kc2": "float_field", "kc3": "boolean_field",
		"kc4": "int32_field", "kc5": "ba_field", "kc6": "flba_field", "kc7": "int64_field.list.element",
		"kc8": "int96_field"}
)

const testAADPrefix = "tester"

// testKeys returns the keys of a corpus file by key id.
func testKeys(path string) map[string]string {
	if filepath.Base(filepath.Dir(path)) == "aes256" {
		return testKeys256
	}
	return testKeys128
}

// needsPrefix reports whether the file does not store its AAD prefix.
func needsPrefix(path string) bool { return strings.Contains(path, "disable_aad_storage") }

// retrieverProps decrypts with a key retriever of the file's key ids.
func retrieverProps(path string) *encryption.Properties {
	keys := testKeys(path)
	p := &encryption.Properties{KeyRetriever: func(md []byte) ([]byte, error) {
		k, ok := keys[string(md)]
		if !ok {
			return nil, fmt.Errorf("unknown key id %q", md)
		}
		return []byte(k), nil
	}}
	if needsPrefix(path) {
		p.AADPrefix = []byte(testAADPrefix)
	}
	return p
}

// explicitProps decrypts with the footer key and the column keys by path.
func explicitProps(path string) *encryption.Properties {
	keys := testKeys(path)
	p := &encryption.Properties{FooterKey: []byte(keys["kf"]), ColumnKeys: map[string][]byte{}}
	for id, col := range testKeyColumns {
		if k, ok := keys[id]; ok {
			p.ColumnKeys[col] = []byte(k)
		}
	}
	if needsPrefix(path) {
		p.AADPrefix = []byte(testAADPrefix)
	}
	return p
}

// encryptedFiles lists parquet-testing's encrypted files, data/aes256
// included, but not external_key_material_java (TestExternalKeyMaterial).
func encryptedFiles(t *testing.T) []string {
	var out []string
	for _, p := range testcorpus.Files(t, "data", ".parquet.encrypted") {
		if !strings.Contains(p, "external_key_material") {
			out = append(out, p)
		}
	}
	require.GreaterOrEqual(t, len(out), 12)
	return out
}

// checkTestValues checks the values of column col of a row group of the
// files written by arrow-cpp's and parquet-java's encryption tests, as
// arrow-go's encryption_read_config_test.go checks them: row i holds
// boolean i%2 == 0, int32 i, a list of two int64 (2i and 2i+1) * 10^12,
// int96 (i, i+1, i+2), float i*1.1, double i*1.1111111, ba_field
// "parquet" and i in three digits for even i (null for odd), and
// flba_field ten bytes of i.
func checkTestValues(t *testing.T, f *File, rg, col int) {
	t.Helper()
	r, err := f.Column(rg, col)
	require.NoError(t, err)
	name := f.columnName(col)
	var p Page
	row, value := 0, 0
	for {
		err := r.ReadPage(&p)
		if err == io.EOF {
			break
		}
		require.NoError(t, err, name)
		v := &p.Values
		for j := range p.Values.Len() {
			i := row + j
			switch name {
			case "boolean_field":
				require.Equal(t, i%2 == 0, v.Booleans[j], "%s row %d", name, i)
			case "int32_field":
				require.EqualValues(t, i, v.Int32s[j], "%s row %d", name, i)
			case "int64_field", "int64_field.list.element":
				require.EqualValues(t, int64(value+j)*1000*1000*1000*1000, v.Int64s[j], "%s value %d", name, value+j)
			case "int96_field":
				var want [12]byte
				binary.LittleEndian.PutUint32(want[:], uint32(i))
				binary.LittleEndian.PutUint32(want[4:], uint32(i+1))
				binary.LittleEndian.PutUint32(want[8:], uint32(i+2))
				require.Equal(t, want, v.Int96s[j], "%s row %d", name, i)
			case "float_field":
				require.Equal(t, float32(i)*1.1, v.Floats[j], "%s row %d", name, i)
			case "double_field":
				require.Equal(t, float64(i)*1.1111111, v.Doubles[j], "%s row %d", name, i)
			case "ba_field":
				i := row + 2*j // odd rows are null
				require.Equal(t, fmt.Sprintf("parquet%03d", i), string(v.ByteArray(j)), "%s row %d", name, i)
			case "flba_field":
				require.Equal(t, bytes.Repeat([]byte{byte(i)}, 10), v.ByteArray(j), "%s row %d", name, i)
			default:
				t.Fatalf("unexpected column %s", name)
			}
		}
		if name == "ba_field" {
			for k, d := range p.DefLevels {
				require.EqualValues(t, 1-(row+k)%2, d, "ba_field row %d definition level", row+k)
			}
		}
		if strings.HasPrefix(name, "int64_field") {
			require.Equal(t, p.NumLevels/2, p.NumRows(), "two values per list")
			value += p.Values.Len()
		}
		row += p.NumRows()
	}
	require.EqualValues(t, f.MetaData().RowGroups[rg].NumRows, row, name)
}

// TestDecryptCorpus reads every column of every encrypted file of
// parquet-testing (data/ and data/aes256) with the keys its README gives,
// through a key retriever and through explicit keys, and checks every
// value.
func TestDecryptCorpus(t *testing.T) {
	for _, path := range encryptedFiles(t) {
		rel := filepath.Join(filepath.Base(filepath.Dir(path)), filepath.Base(path))
		for cfg, props := range map[string]func(string) *encryption.Properties{"retriever": retrieverProps, "explicit": explicitProps} {
			t.Run(rel+"/"+cfg, func(t *testing.T) {
				f, err := openFile(t, path, WithDecryption(props(path)))
				require.NoError(t, err)
				require.NotNil(t, f.Decryptor())
				if strings.Contains(path, "bloom_filter") {
					checkBloomFile(t, f)
					return
				}
				require.Equal(t, 8, f.NumColumns())
				for rg := range f.NumRowGroups() {
					for col := range f.NumColumns() {
						checkTestValues(t, f, rg, col)
					}
				}
			})
		}
	}
}

// checkBloomFile reads encrypt_columns_and_footer_bloom_filter, whose
// values the README does not document: every column reads, as many values
// as its metadata says, and the bloom filters of the two encrypted columns
// decrypt to a header whose numBytes is the bitset's length.
func checkBloomFile(t *testing.T, f *File) {
	var p Page
	filters := 0
	for rg := range f.NumRowGroups() {
		for col := range f.NumColumns() {
			s, err := readChunk(f, rg, col, &p)
			require.NoError(t, err)
			cc := &f.MetaData().RowGroups[rg].Columns[col]
			require.EqualValues(t, cc.MetaData.NumValues, s.levels)
			ci, err := f.ChunkCipher(rg, col)
			require.NoError(t, err)
			if ci == nil {
				continue
			}
			h, bitset, err := format.ReadBloomFilterDecrypt(f.r, f.size, cc, f.Decryptor(), ci, rg, col)
			require.NoError(t, err)
			if h != nil {
				filters++
				require.NotEmpty(t, bitset)
				// The same modules under another column's AAD do not
				// decrypt.
				_, _, err = format.ReadBloomFilterDecrypt(f.r, f.size, cc, f.Decryptor(), ci, rg, col+1)
				require.ErrorIs(t, err, pqcodec.ErrDecrypt)
			}
		}
	}
	require.Equal(t, 2, filters, "bloom filters of double_field and float_field")
}

// noKeyInError fails t when err's message holds one of the test keys.
func noKeyInError(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	for _, keys := range []map[string]string{testKeys128, testKeys256} {
		for _, k := range keys {
			require.NotContains(t, err.Error(), k, "a key in an error message")
		}
	}
	require.NotContains(t, err.Error(), "wrongwrongwrong!")
}

// readColumnErr reads column col of row group 0 to its end.
func readColumnErr(f *File, col int) error {
	var p Page
	_, err := readChunk(f, 0, col, &p)
	return err
}

// TestDecryptWrongKeys checks that keys that are wrong or missing give
// errors matching the right sentinel, naming the column they are about, the
// other columns still reading, and that no error shows a key.
func TestDecryptWrongKeys(t *testing.T) {
	wrong := []byte("wrongwrongwrong!")
	dir := testcorpus.Dir(t)
	data := func(name string) string { return filepath.Join(dir, "data", name) }

	t.Run("wrong footer key", func(t *testing.T) {
		for _, name := range []string{"encrypt_columns_and_footer.parquet.encrypted", "uniform_encryption.parquet.encrypted",
			"encrypt_columns_and_footer_ctr.parquet.encrypted", "encrypt_columns_plaintext_footer.parquet.encrypted"} {
			p := explicitProps(data(name))
			p.FooterKey = wrong
			_, err := openFile(t, data(name), WithDecryption(p))
			require.ErrorIs(t, err, pqcodec.ErrDecrypt, name)
			require.NotErrorIs(t, err, pqcodec.ErrCorrupt, name)
			noKeyInError(t, err)
		}
	})
	t.Run("wrong column key", func(t *testing.T) {
		for _, name := range []string{"encrypt_columns_and_footer.parquet.encrypted", "encrypt_columns_and_footer_ctr.parquet.encrypted",
			"encrypt_columns_plaintext_footer.parquet.encrypted"} {
			path := data(name)
			p := explicitProps(path)
			p.ColumnKeys["double_field"] = wrong
			f, err := openFile(t, path, WithDecryption(p))
			require.NoError(t, err, name)
			col, err := f.LeafIndex("double_field")
			require.NoError(t, err)
			err = readColumnErr(f, col)
			require.ErrorIs(t, err, pqcodec.ErrDecrypt, name)
			require.ErrorContains(t, err, "double_field")
			noKeyInError(t, err)
			for c := range f.NumColumns() {
				if c != col {
					checkTestValues(t, f, 0, c)
				}
			}
		}
	})
	t.Run("missing column key", func(t *testing.T) {
		path := data("encrypt_columns_and_footer.parquet.encrypted")
		p := explicitProps(path)
		delete(p.ColumnKeys, "float_field")
		f, err := openFile(t, path, WithDecryption(p))
		require.NoError(t, err)
		col, err := f.LeafIndex("float_field")
		require.NoError(t, err)
		err = readColumnErr(f, col)
		require.ErrorIs(t, err, ErrEncrypted)
		require.ErrorIs(t, err, encryption.ErrNoKey)
		require.NotErrorIs(t, err, pqcodec.ErrDecrypt)
		require.ErrorContains(t, err, "float_field")
		_, _, err = f.PageIndex(0, col)
		require.ErrorIs(t, err, encryption.ErrNoKey)
		for c := range f.NumColumns() {
			if c != col {
				checkTestValues(t, f, 0, c)
			}
		}
	})
	t.Run("key retriever error", func(t *testing.T) {
		path := data("encrypt_columns_and_footer.parquet.encrypted")
		p := retrieverProps(path)
		get := p.KeyRetriever
		p.KeyRetriever = func(md []byte) ([]byte, error) {
			if string(md) == "kc1" {
				return nil, errors.New("KMS unreachable")
			}
			return get(md)
		}
		f, err := openFile(t, path, WithDecryption(p))
		require.NoError(t, err)
		col, err := f.LeafIndex("double_field")
		require.NoError(t, err)
		err = readColumnErr(f, col)
		require.ErrorIs(t, err, encryption.ErrNoKey)
		require.ErrorContains(t, err, "KMS unreachable")
		require.ErrorContains(t, err, "double_field")
	})
	t.Run("no footer key", func(t *testing.T) {
		path := data("encrypt_columns_and_footer.parquet.encrypted")
		p := explicitProps(path)
		p.FooterKey = nil
		_, err := openFile(t, path, WithDecryption(p))
		require.ErrorIs(t, err, ErrEncrypted)
		require.ErrorIs(t, err, encryption.ErrNoKey)
	})
	t.Run("invalid key length", func(t *testing.T) {
		path := data("encrypt_columns_and_footer.parquet.encrypted")
		p := explicitProps(path)
		p.FooterKey = []byte("short")
		_, err := openFile(t, path, WithDecryption(p))
		require.ErrorIs(t, err, encryption.ErrInvalidKey)
		require.NotContains(t, err.Error(), "short")
	})
	t.Run("AAD prefix", func(t *testing.T) {
		// Not stored: it must be given, and right.
		path := data("encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted")
		p := explicitProps(path)
		p.AADPrefix = nil
		_, err := openFile(t, path, WithDecryption(p))
		require.ErrorIs(t, err, encryption.ErrNoKey)
		p.AADPrefix = []byte("tester2")
		_, err = openFile(t, path, WithDecryption(p))
		require.ErrorIs(t, err, pqcodec.ErrDecrypt)
		// Stored: a prefix given must equal it.
		path = data("encrypt_columns_and_footer_aad.parquet.encrypted")
		p = explicitProps(path)
		p.AADPrefix = []byte("tester2")
		_, err = openFile(t, path, WithDecryption(p))
		require.ErrorIs(t, err, pqcodec.ErrDecrypt)
		p.AADPrefix = []byte(testAADPrefix)
		f, err := openFile(t, path, WithDecryption(p))
		require.NoError(t, err)
		checkTestValues(t, f, 0, 5)
	})
	t.Run("plaintext footer without keys", func(t *testing.T) {
		// A reader without keys reads the plaintext columns, as legacy
		// readers do (arrow-go's decryption configuration 4).
		path := data("encrypt_columns_plaintext_footer.parquet.encrypted")
		for _, opts := range [][]Option{nil, {WithDecryption(&encryption.Properties{NoFooterSignature: true})}} {
			f, err := openFile(t, path, opts...)
			require.NoError(t, err)
			for c := range f.NumColumns() {
				switch name := f.columnName(c); name {
				case "double_field", "float_field":
					err := readColumnErr(f, c)
					require.ErrorIs(t, err, ErrEncrypted)
					require.ErrorContains(t, err, name)
				default:
					checkTestValues(t, f, 0, c)
				}
			}
		}
		// Verifying the signature needs the footer key.
		_, err := openFile(t, path, WithDecryption(&encryption.Properties{}))
		require.ErrorIs(t, err, encryption.ErrNoKey)
	})
}

// TestDecryptPageIndex reads the column and offset indexes of encrypted
// columns and seeks with them.
func TestDecryptPageIndex(t *testing.T) {
	indexes := 0
	for _, path := range encryptedFiles(t) {
		f, err := openFile(t, path, WithDecryption(retrieverProps(path)))
		require.NoError(t, err)
		for col := range f.NumColumns() {
			cc := &f.MetaData().RowGroups[0].Columns[col]
			ci, oi, err := f.PageIndex(0, col)
			require.NoError(t, err, "%s column %d", path, col)
			if cc.Encrypted() && oi != nil {
				indexes++
				if ci != nil {
					require.Equal(t, oi.NumPages(), ci.NumPages())
				}
				r, err := f.Column(0, col)
				require.NoError(t, err)
				rows := f.MetaData().RowGroups[0].NumRows
				var p Page
				for _, row := range []int64{rows - 1, 0, rows / 2} {
					require.NoError(t, r.SeekRow(row))
					require.NoError(t, r.ReadPage(&p))
					require.EqualValues(t, row, r.RowIndex())
				}
			}
		}
	}
	t.Logf("%d encrypted chunks with an offset index", indexes)
	require.NotZero(t, indexes)
}

// TestDecryptZeroAllocs checks that reading encrypted chunks allocates
// nothing once a Reader's buffers are warm (AES_GCM_V1: every module is
// AES-GCM; AES_GCM_CTR_V1 pages cost one CTR stream each, see
// encryption.ChunkDecryptor).
func TestDecryptZeroAllocs(t *testing.T) {
	path := testcorpus.Data(t, "encrypt_columns_and_footer.parquet.encrypted")
	f, err := openFile(t, path, WithDecryption(retrieverProps(path)))
	require.NoError(t, err)
	var r Reader
	var p Page
	read := func() {
		for col := range f.NumColumns() {
			require.NoError(t, f.ResetReader(&r, 0, col))
			for {
				err := r.ReadPage(&p)
				if err == io.EOF {
					break
				}
				require.NoError(t, err)
			}
		}
	}
	read()
	require.Zero(t, testing.AllocsPerRun(20, read))
}

// TestExternalKeyMaterial reads external_key_material_java, written by
// parquet-java's key tools with external key material and its in-memory
// KMS, whose master keys are the README's keys of "kf", "kc1" and "kc2".
func TestExternalKeyMaterial(t *testing.T) {
	path := testcorpus.Data(t, "external_key_material_java.parquet.encrypted")
	master := map[string][]byte{}
	for id, k := range testKeys128 {
		master[id] = []byte(k)
	}
	// Without the external key material: an error saying what is missing.
	_, err := openFile(t, path, WithDecryption(&encryption.Properties{KeyRetriever: encryption.KeyToolsRetriever(encryption.LocalUnwrap(master), nil)}))
	require.ErrorIs(t, err, encryption.ErrNoKey)
	require.ErrorContains(t, err, "_KEY_MATERIAL_FOR_")

	b, err := os.ReadFile(encryption.ExternalKeyMaterialPath(path))
	require.NoError(t, err)
	material, err := encryption.ParseExternalKeyMaterial(b)
	require.NoError(t, err)
	f, err := openFile(t, path, WithDecryption(&encryption.Properties{KeyRetriever: encryption.KeyToolsRetriever(encryption.LocalUnwrap(master), material)}))
	require.NoError(t, err)
	var p Page
	for col := range f.NumColumns() {
		s, err := readChunk(f, 0, col, &p)
		require.NoError(t, err, f.columnName(col))
		require.EqualValues(t, f.MetaData().RowGroups[0].Columns[col].MetaData.NumValues, s.levels)
		t.Logf("%s: %d values", f.columnName(col), s.values)
	}
	// A wrong master key does not unwrap.
	master["kc1"] = []byte("0000000000000000")
	f, err = openFile(t, path, WithDecryption(&encryption.Properties{KeyRetriever: encryption.KeyToolsRetriever(encryption.LocalUnwrap(master), material)}))
	require.NoError(t, err)
	failed := 0
	for col := range f.NumColumns() {
		if _, err := readChunk(f, 0, col, &p); err != nil {
			require.ErrorIs(t, err, pqcodec.ErrDecrypt)
			failed++
		}
	}
	require.Equal(t, 1, failed)
}

// TestDecryptConcurrent reads an encrypted file from several goroutines
// sharing its File (and so its decryptor and Ciphers): run it with -race.
func TestDecryptConcurrent(t *testing.T) {
	path := testcorpus.Data(t, "encrypt_columns_and_footer.parquet.encrypted")
	f, err := openFile(t, path, WithDecryption(retrieverProps(path)))
	require.NoError(t, err)
	done := make(chan error, 4)
	for range 4 {
		go func() {
			var p Page
			for range 5 {
				for col := range f.NumColumns() {
					if _, err := readChunk(f, 0, col, &p); err != nil {
						done <- err
						return
					}
					if _, _, err := f.PageIndex(0, col); err != nil {
						done <- err
						return
					}
				}
			}
			done <- nil
		}()
	}
	for range 4 {
		require.NoError(t, <-done)
	}
	var levels [8]int
	require.NoError(t, f.ReadRowGroup(t.Context(), 0, nil, 3, func(col int, p *Page) error {
		levels[col] += p.NumLevels
		return nil
	}))
	for col, n := range levels {
		require.EqualValues(t, f.MetaData().RowGroups[0].Columns[col].MetaData.NumValues, n)
	}
}

// TestDecryptMaxMemory checks that the bytes WithMaxMemory counts as held
// between pages include the decrypted page, which a Reader of an encrypted
// chunk keeps beside the window of ciphertext.
func TestDecryptMaxMemory(t *testing.T) {
	path := testcorpus.Data(t, "uniform_encryption.parquet.encrypted")
	f, err := openFile(t, path, WithDecryption(retrieverProps(path)), WithMaxMemory(1<<30))
	require.NoError(t, err)
	var r Reader
	var p Page
	require.NoError(t, f.ResetReader(&r, 0, 2))
	require.NoError(t, r.ReadPage(&p))
	window, _ := r.held()
	require.GreaterOrEqual(t, window, int64(cap(r.pages.Buffer()))+int64(r.pages.Header().CompressedPageSize)-encryption.LengthSize-encryption.NonceSize-encryption.TagSize)
}

// TestDecryptBloomFilter reads the encrypted bloom filters of
// encrypt_columns_and_footer_bloom_filter through File.BloomFilter: every
// value of their chunks passes them, and most values absent from the
// chunk do not.
func TestDecryptBloomFilter(t *testing.T) {
	path := testcorpus.Data(t, "encrypt_columns_and_footer_bloom_filter.parquet.encrypted")
	f, err := openFile(t, path, WithDecryption(retrieverProps(path)))
	require.NoError(t, err)
	for _, name := range []string{"double_field", "float_field"} {
		col, err := f.LeafIndex(name)
		require.NoError(t, err)
		bf, err := f.BloomFilter(0, col)
		require.NoError(t, err)
		require.NotNil(t, bf, name)
		r, err := f.Column(0, col)
		require.NoError(t, err)
		var p Page
		values := 0
		for {
			err := r.ReadPage(&p)
			if err == io.EOF {
				break
			}
			require.NoError(t, err)
			for _, v := range p.Values.Doubles {
				require.True(t, bf.Check(bloom.HashFloat64(v)), "%s value %v", name, v)
				values++
			}
			for _, v := range p.Values.Floats {
				require.True(t, bf.Check(bloom.HashFloat32(v)), "%s value %v", name, v)
				values++
			}
		}
		require.Equal(t, 2000, values)
		absent := 0
		for i := range 1000 {
			h := bloom.HashFloat64(-1e9 - float64(i))
			if name == "float_field" {
				h = bloom.HashFloat32(-1e9 - float32(i)*1000)
			}
			if !bf.Check(h) {
				absent++
			}
		}
		t.Logf("%s: %d values pass, %d of 1000 absent values rejected", name, values, absent)
		require.Greater(t, absent, 900, name)
	}
}
