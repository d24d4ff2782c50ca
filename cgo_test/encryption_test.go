package cgotest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/encryption"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// Keys of the encrypted files arrow-go writes here (the keys of
// parquet-testing's encrypted files).
const (
	encFooterKey = "0123456789012345"
	encPriceKey  = "1234567890123450"
	encNameKey   = "1234567890123451"
	encAADPrefix = "tester"
)

// encConfig is one of arrow-go's encryption configurations (those of its
// encryption_write_config_test.go) for the generated file.
type encConfig struct {
	name  string
	write func() *parquet.FileEncryptionProperties
	// columnKeys: the file has column keys; aadPrefix: its AAD prefix must
	// be given.
	columnKeys, aadPrefix bool
}

func encColumns() parquet.ColumnPathToEncryptionPropsMap {
	return parquet.ColumnPathToEncryptionPropsMap{
		"price": parquet.NewColumnEncryptionProperties("price", parquet.WithKey(encPriceKey), parquet.WithKeyID("kc1")),
		"name":  parquet.NewColumnEncryptionProperties("name", parquet.WithKey(encNameKey), parquet.WithKeyID("kc2")),
	}
}

var encConfigs = []encConfig{
	{"uniform-gcm", func() *parquet.FileEncryptionProperties {
		return parquet.NewFileEncryptionProperties(encFooterKey, parquet.WithFooterKeyMetadata("kf"))
	}, false, false},
	{"uniform-ctr", func() *parquet.FileEncryptionProperties {
		return parquet.NewFileEncryptionProperties(encFooterKey, parquet.WithAlg(parquet.AesCtr))
	}, false, false},
	{"columns-and-footer", func() *parquet.FileEncryptionProperties {
		return parquet.NewFileEncryptionProperties(encFooterKey, parquet.WithFooterKeyMetadata("kf"), parquet.WithEncryptedColumns(encColumns()))
	}, true, false},
	{"plaintext-footer", func() *parquet.FileEncryptionProperties {
		return parquet.NewFileEncryptionProperties(encFooterKey, parquet.WithEncryptedColumns(encColumns()), parquet.WithPlaintextFooter())
	}, true, false},
	{"aad-prefix", func() *parquet.FileEncryptionProperties {
		return parquet.NewFileEncryptionProperties(encFooterKey, parquet.WithEncryptedColumns(encColumns()), parquet.WithAadPrefix(encAADPrefix))
	}, true, false},
	{"aad-prefix-not-stored", func() *parquet.FileEncryptionProperties {
		return parquet.NewFileEncryptionProperties(encFooterKey, parquet.WithEncryptedColumns(encColumns()),
			parquet.WithAadPrefix(encAADPrefix), parquet.DisableAadPrefixStorage())
	}, true, true},
	{"ctr-columns-and-footer", func() *parquet.FileEncryptionProperties {
		return parquet.NewFileEncryptionProperties(encFooterKey, parquet.WithAlg(parquet.AesCtr), parquet.WithEncryptedColumns(encColumns()))
	}, true, false},
}

// ourKeys and arrowKeys are the keys of a configuration for each reader.
func (c encConfig) ourKeys() *encryption.Properties {
	p := &encryption.Properties{FooterKey: []byte(encFooterKey)}
	if c.columnKeys {
		p.ColumnKeys = map[string][]byte{"price": []byte(encPriceKey), "name": []byte(encNameKey)}
	}
	if c.aadPrefix {
		p.AADPrefix = []byte(encAADPrefix)
	}
	return p
}

func (c encConfig) arrowKeys() *parquet.FileDecryptionProperties {
	opts := []parquet.FileDecryptionOption{parquet.WithFooterKey(encFooterKey)}
	if c.columnKeys {
		opts = append(opts, parquet.WithColumnKeys(parquet.ColumnPathToDecryptionPropsMap{
			"price": parquet.NewColumnDecryptionProperties("price", parquet.WithDecryptKey(encPriceKey)),
			"name":  parquet.NewColumnDecryptionProperties("name", parquet.WithDecryptKey(encNameKey)),
		}))
	}
	if c.aadPrefix {
		opts = append(opts, parquet.WithDecryptAadPrefix(encAADPrefix))
	}
	return parquet.NewFileDecryptionProperties(opts...)
}

func arrowDecryptOption(p *parquet.FileDecryptionProperties) file.ReadOption {
	props := parquet.NewReaderProperties(nil)
	props.FileDecryptProps = p
	return file.WithReadProps(props)
}

// encryptedInputs writes the generated SNAPPY file, without dictionary,
// with each configuration, and once without encryption, once.
var encryptedInputs = sync.OnceValues(func() (map[string][]byte, error) {
	out := map[string][]byte{}
	b, err := writeGenerated(compress.Codecs.Snappy, false)
	if err != nil {
		return nil, err
	}
	out["plaintext"] = b
	for _, c := range encConfigs {
		b, err := writeGenerated(compress.Codecs.Snappy, false, parquet.WithEncryptionProperties(c.write()))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.name, err)
		}
		out[c.name] = b
	}
	return out, nil
})

// readArrowDecrypt is readArrow for an encrypted file.
func readArrowDecrypt(b []byte, p *parquet.FileDecryptionProperties) (fileData, error) {
	rdr, err := file.NewParquetReader(bytes.NewReader(b), arrowDecryptOption(p))
	if err != nil {
		return nil, err
	}
	defer rdr.Close()
	schema := rdr.MetaData().Schema
	out := make(fileData, rdr.NumRowGroups())
	for rg := range out {
		rgr := rdr.RowGroup(rg)
		out[rg] = make([]*chunkData, rgr.NumColumns())
		for col := range out[rg] {
			descr := schema.Column(col)
			c := newChunkData(descr.ColumnPath().String(), format.Type(descr.PhysicalType()),
				int(descr.MaxDefinitionLevel()), int(descr.MaxRepetitionLevel()))
			cr, err := rgr.Column(col)
			if err != nil {
				return nil, err
			}
			if err := readArrowChunk(cr, c); err != nil {
				return nil, err
			}
			out[rg][col] = c
		}
	}
	return out, nil
}

// TestArrowEncryptedFiles reads the files arrow-go writes with each of its
// encryption configurations: the values equal arrow-go's own decrypting
// read and the unencrypted file's.
func TestArrowEncryptedFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("writes eight files of 512Ki rows")
	}
	in, err := encryptedInputs()
	require.NoError(t, err)
	plain, _, err := readOurs(in["plaintext"])
	require.NoError(t, err)
	for _, c := range encConfigs {
		t.Run(c.name, func(t *testing.T) {
			b := in[c.name]
			ours, _, err := readOurs(b, column.WithDecryption(c.ourKeys()))
			require.NoError(t, err)
			want, err := readArrowDecrypt(b, c.arrowKeys())
			require.NoError(t, err)
			require.Empty(t, diffFiles(ours, want), "ours and arrow-go")
			require.Empty(t, diffFiles(ours, plain), "decrypted and plaintext")
			// A wrong footer key fails.
			bad := c.ourKeys()
			bad.FooterKey = []byte("0123456789012349")
			_, _, err = readOurs(b, column.WithDecryption(bad))
			require.Error(t, err)
		})
	}
}

// BenchmarkDecrypt decodes the generated SNAPPY file encrypted with
// AES_GCM_V1 and AES_GCM_CTR_V1 (every column and the footer with one key),
// with ours and with arrow-go's decrypting reader; impl=ours-plaintext is
// ours on the same file unencrypted, so the difference is the cost of
// decryption. SetBytes is the file's uncompressed page bytes.
func BenchmarkDecrypt(b *testing.B) {
	in, err := encryptedInputs()
	if err != nil {
		b.Fatal(err)
	}
	size, err := uncompressedSize(in["plaintext"])
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range encConfigs {
		if c.name != "uniform-gcm" && c.name != "uniform-ctr" && c.name != "columns-and-footer" {
			continue
		}
		data := in[c.name]
		b.Run("gen-snappy-plain-"+c.name, func(b *testing.B) {
			runners := []struct {
				name string
				mk   func() (benchRunner, error)
			}{
				{"impl=ours", func() (benchRunner, error) { return newOursBench(data, column.WithDecryption(c.ourKeys())) }},
				{"impl=arrow", func() (benchRunner, error) { return newArrowBench(data, arrowDecryptOption(c.arrowKeys())) }},
				{"impl=ours-plaintext", func() (benchRunner, error) { return newOursBench(in["plaintext"]) }},
			}
			// Check once that the three give the same values.
			var sums []benchSum
			for _, r := range runners {
				rd, err := r.mk()
				if err != nil {
					b.Fatal(err)
				}
				var s benchSum
				if err := rd.run(&s); err != nil {
					b.Fatal(err)
				}
				sums = append(sums, s)
			}
			if sums[0] != sums[1] || sums[0] != sums[2] || sums[0].levels == 0 {
				b.Fatalf("timed paths disagree: %+v", sums)
			}
			for _, r := range runners {
				b.Run(r.name, func(b *testing.B) {
					rd, err := r.mk()
					if err != nil {
						b.Fatal(err)
					}
					if err := rd.run(nil); err != nil {
						b.Fatal(err)
					}
					b.SetBytes(size)
					b.ReportAllocs()
					b.ResetTimer()
					cpu := cpuTime()
					for b.Loop() {
						if err := rd.run(nil); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
				})
			}
		})
	}
}

// keyFunc adapts a key retriever to arrow-go's interface.
type keyFunc func([]byte) ([]byte, error)

func (f keyFunc) GetKey(md []byte) string {
	k, err := f(md)
	if err != nil {
		return ""
	}
	return string(k)
}

// corpusRetriever returns the key retriever of parquet-testing's encrypted
// file rel (data/README.md's key ids; parquet-java's key tools with its
// in-memory KMS for external_key_material_java).
func corpusRetriever(t *testing.T, dataDir, rel string) func([]byte) ([]byte, error) {
	keys := map[string]string{"kf": "0123456789012345", "kc1": "1234567890123450", "kc2": "1234567890123451"}
	if strings.HasPrefix(rel, "aes256/") {
		keys = map[string]string{"kf": "01234567890123456789012345678901"}
		for i := 1; i <= 8; i++ {
			keys[fmt.Sprintf("kc%d", i)] = fmt.Sprintf("1234567890123456789012345678901%d", i+1)
		}
	}
	if strings.Contains(rel, "external_key_material") {
		path := filepath.Join(dataDir, rel)
		b, err := os.ReadFile(encryption.ExternalKeyMaterialPath(path))
		require.NoError(t, err)
		material, err := encryption.ParseExternalKeyMaterial(b)
		require.NoError(t, err)
		master := map[string][]byte{}
		for id, k := range keys {
			master[id] = []byte(k)
		}
		return encryption.KeyToolsRetriever(encryption.LocalUnwrap(master), material)
	}
	return func(md []byte) ([]byte, error) {
		k, ok := keys[string(md)]
		if !ok {
			return nil, fmt.Errorf("unknown key id %q", md)
		}
		return []byte(k), nil
	}
}

// arrowCannotDecrypt are the encrypted files of parquet-testing that
// arrow-go v18.8.0 fails to read with the right keys ("decrypting page
// data: encrypted payload length prefix is 4215063935, available length is
// 35"): the files parquet-java wrote, and the one with bloom filters. Ours
// reads them, and column.TestDecryptCorpus checks their values against the
// README's.
var arrowCannotDecrypt = map[string]bool{
	"aes256/encrypt_columns_and_footer.parquet.encrypted":                     true,
	"aes256/encrypt_columns_and_footer_ctr.parquet.encrypted":                 true,
	"aes256/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted": true,
	"aes256/encrypt_columns_plaintext_footer.parquet.encrypted":               true,
	"aes256/uniform_encryption.parquet.encrypted":                             true,
	"encrypt_columns_and_footer_bloom_filter.parquet.encrypted":               true,
	"external_key_material_java.parquet.encrypted":                            true,
}

// TestCorpusEncryptedVsArrow decrypts every encrypted file of
// parquet-testing (data/ and data/aes256) with ours and with arrow-go's
// decrypting reader, given the same keys through a key retriever: every
// chunk is identical, levels and values, where arrow-go reads the file
// (see arrowCannotDecrypt).
func TestCorpusEncryptedVsArrow(t *testing.T) {
	dataDir := filepath.Join(testcorpus.Dir(t), "data")
	n := 0
	err := filepath.WalkDir(dataDir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".parquet.encrypted") {
			return err
		}
		rel, _ := filepath.Rel(dataDir, p)
		n++
		t.Run(rel, func(t *testing.T) {
			b, err := os.ReadFile(p)
			require.NoError(t, err)
			get := corpusRetriever(t, dataDir, rel)
			ours := &encryption.Properties{KeyRetriever: get}
			arrowOpts := []parquet.FileDecryptionOption{parquet.WithKeyRetriever(keyFunc(get))}
			if strings.Contains(rel, "disable_aad_storage") {
				ours.AADPrefix = []byte(encAADPrefix)
				arrowOpts = append(arrowOpts, parquet.WithDecryptAadPrefix(encAADPrefix))
			}
			got, _, err := readOurs(b, column.WithDecryption(ours))
			require.NoError(t, err)
			want, err := readArrowDecrypt(b, parquet.NewFileDecryptionProperties(arrowOpts...))
			if arrowCannotDecrypt[rel] {
				require.Error(t, err, "arrow-go reads it now: compare")
				t.Logf("arrow-go: %v", err)
				return
			}
			require.NoError(t, err)
			require.Empty(t, diffFiles(got, want))
		})
		return nil
	})
	require.NoError(t, err)
	require.GreaterOrEqual(t, n, 13)
}
