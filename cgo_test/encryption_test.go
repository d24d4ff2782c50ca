package cgotest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/codecfactory"
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
	b, err := generatedEncrypted(compress.Codecs.Snappy, false, nil)
	if err != nil {
		return nil, err
	}
	out["plaintext"] = b
	for i, c := range encConfigs {
		b, err := generatedEncrypted(compress.Codecs.Snappy, false, &encConfigs[i])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.name, err)
		}
		out[c.name] = b
	}
	return out, nil
})

// generatedFiles holds the generated files by name, each written once.
var generatedFiles sync.Map // name -> func() ([]byte, error)

// generatedEncrypted is writeGenerated(codec, dict) encrypted with c (in the
// clear if c is nil), written once per process (and kept in
// PQCODEC_BENCH_CACHE when that is set).
func generatedEncrypted(codec compress.Compression, dict bool, c *encConfig) ([]byte, error) {
	name := fmt.Sprintf("gen-%s-dict=%t", strings.ToLower(codec.String()), dict)
	var extra []parquet.WriterProperty
	if c != nil {
		name += "-" + c.name
		extra = append(extra, parquet.WithEncryptionProperties(c.write()))
	}
	f, _ := generatedFiles.LoadOrStore(name, sync.OnceValues(func() ([]byte, error) {
		return cachedInput(name, func() ([]byte, error) { return writeGenerated(codec, dict, extra...) })
	}))
	return f.(func() ([]byte, error))()
}

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

// decryptCodecs are the codecs arrow-go writes and reads, each the file's
// only codec in BenchmarkDecrypt.
var decryptCodecs = []struct {
	name  string
	codec compress.Compression
}{
	{"uncompressed", compress.Codecs.Uncompressed},
	{"snappy", compress.Codecs.Snappy},
	{"gzip", compress.Codecs.Gzip},
	{"zstd", compress.Codecs.Zstd},
	{"lz4raw", compress.Codecs.Lz4Raw},
	{"brotli", compress.Codecs.Brotli},
}

// decryptCorpus are the encrypted files of parquet-testing that arrow-go
// reads (see arrowCannotDecrypt), all written by parquet-java, with the
// AAD prefix the file needs given.
var decryptCorpus = []string{
	"uniform_encryption.parquet.encrypted",
	"encrypt_columns_and_footer.parquet.encrypted",
	"encrypt_columns_and_footer_aad.parquet.encrypted",
	"encrypt_columns_and_footer_ctr.parquet.encrypted",
	"encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted",
	"encrypt_columns_plaintext_footer.parquet.encrypted",
}

// BenchmarkDecrypt decodes encrypted files with ours and with arrow-go's
// decrypting reader (its typed ColumnChunkReaders, ReadBatchInPage, as
// BenchmarkDecode's arrow runner: both give every chunk's definition levels
// and non-null values, arrow-go's byte arrays aliasing its page, ours
// copied out to flat bytes and offsets).
//
//   - gen-<codec>-<plain|dict>-<config>: the generated file of
//     BenchmarkDecode (512Ki rows of a timestamp, a double with 2% nulls and
//     a string with 5% nulls; 1 MiB pages) written by arrow-go with each
//     codec it writes and reads, without or with dictionaries, every column
//     and the footer encrypted with one key by AES_GCM_V1 (uniform-gcm) or
//     AES_GCM_CTR_V1 (uniform-ctr); gen-snappy-plain also with column keys
//     (columns-and-footer). impl=ours-plaintext is ours on the same file
//     unencrypted, so the difference is the cost of decryption. The footer
//     is parsed once, outside the timed loop; SetBytes is the file's
//     uncompressed page bytes.
//   - pt-<file>: the small encrypted files of parquet-testing that
//     arrow-go reads (parquet-java's; decryptCorpus), opened and read whole
//     in each op (key retrieval, footer decryption and every column), since
//     their footer is a large part of them, each reader's buffers reused
//     (oursReopen, arrowReopen); SetBytes is the file's size.
//
// Before timing, the runners' outputs (level and value counts, hashes of
// the values and definition levels) must agree.
func BenchmarkDecrypt(b *testing.B) {
	for _, cd := range decryptCodecs {
		for _, dict := range []bool{false, true} {
			kind := "plain"
			if dict {
				kind = "dict"
			}
			for i, c := range encConfigs {
				if c.name != "uniform-gcm" && c.name != "uniform-ctr" &&
					(c.name != "columns-and-footer" || cd.name != "snappy" || dict) {
					continue
				}
				c := &encConfigs[i]
				b.Run("gen-"+cd.name+"-"+kind+"-"+c.name, func(b *testing.B) {
					data, err := generatedEncrypted(cd.codec, dict, c)
					if err != nil {
						b.Fatal(err)
					}
					plain, err := generatedEncrypted(cd.codec, dict, nil)
					if err != nil {
						b.Fatal(err)
					}
					size, err := uncompressedSize(plain)
					if err != nil {
						b.Fatal(err)
					}
					benchDecryptRunners(b, size, []decryptRunner{
						{"impl=ours", func() (benchRunner, error) { return newOursBench(data, column.WithDecryption(c.ourKeys())) }},
						{"impl=arrow", func() (benchRunner, error) { return newArrowBench(data, arrowDecryptOption(c.arrowKeys())) }},
						{"impl=ours-plaintext", func() (benchRunner, error) { return newOursBench(plain) }},
					})
				})
			}
		}
	}
	dir, ok := testcorpus.Find()
	if !ok {
		return
	}
	for _, name := range decryptCorpus {
		b.Run("pt-"+strings.TrimSuffix(name, ".parquet.encrypted"), func(b *testing.B) {
			data, err := os.ReadFile(filepath.Join(dir, "data", name))
			if err != nil {
				b.Fatal(err)
			}
			get := corpusRetriever(b, filepath.Join(dir, "data"), name)
			ours := &encryption.Properties{KeyRetriever: get}
			arrowOpts := []parquet.FileDecryptionOption{parquet.WithKeyRetriever(keyFunc(get))}
			if strings.Contains(name, "disable_aad_storage") {
				ours.AADPrefix = []byte(encAADPrefix)
				arrowOpts = append(arrowOpts, parquet.WithDecryptAadPrefix(encAADPrefix))
			}
			benchDecryptRunners(b, int64(len(data)), []decryptRunner{
				{"impl=ours", func() (benchRunner, error) {
					return &oursReopen{data: data, opts: []column.Option{column.WithDecryption(ours)}}, nil
				}},
				{"impl=arrow", func() (benchRunner, error) {
					// A FileDecryptionProperties holds the keys it
					// retrieved: a new one for each file read.
					return &arrowReopen{data: data, opts: func() []file.ReadOption {
						return []file.ReadOption{arrowDecryptOption(parquet.NewFileDecryptionProperties(arrowOpts...))}
					}}, nil
				}},
			})
		})
	}
}

// decryptRunner makes one reader of BenchmarkDecrypt.
type decryptRunner struct {
	name string
	mk   func() (benchRunner, error)
}

// oursReopen opens its file in every run, then reads it with one reused
// column.Reader and Page, as a program reading many files would.
type oursReopen struct {
	o    oursBench
	data []byte
	opts []column.Option
}

func (r *oursReopen) run(sum *benchSum) error {
	f, err := column.Open(bytes.NewReader(r.data), int64(len(r.data)), r.opts...)
	if err != nil {
		return err
	}
	r.o.f, r.o.column = f, -1
	return r.o.run(sum)
}

// arrowReopen is oursReopen for arrow-go: a new file.Reader in every run,
// the batch buffers reused.
type arrowReopen struct {
	a    *arrowBench
	data []byte
	opts func() []file.ReadOption
}

func (r *arrowReopen) run(sum *benchSum) error {
	rdr, err := file.NewParquetReader(bytes.NewReader(r.data), r.opts()...)
	if err != nil {
		return err
	}
	defer rdr.Close()
	if r.a == nil {
		if r.a, err = newArrowBench(r.data, r.opts()...); err != nil {
			return err
		}
	}
	r.a.rdr = rdr
	return r.a.run(sum)
}

// benchDecryptRunners checks that the runners give the same output, then
// times each as a sub-benchmark.
func benchDecryptRunners(b *testing.B, size int64, runners []decryptRunner) {
	var sums []benchSum
	for _, r := range runners {
		rd, err := r.mk()
		if err != nil {
			b.Fatalf("%s: %v", r.name, err)
		}
		var s benchSum
		if err := rd.run(&s); err != nil {
			b.Fatalf("%s: %v", r.name, err)
		}
		sums = append(sums, s)
	}
	for _, s := range sums[1:] {
		if s != sums[0] || s.levels == 0 {
			b.Fatalf("timed paths disagree: %+v", sums)
		}
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
func corpusRetriever(t testing.TB, dataDir, rel string) func([]byte) ([]byte, error) {
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

// compressedPage is one page body of a column chunk as stored, with its
// codec and decompressed size.
type compressedPage struct {
	column int
	codec  format.CompressionCodec
	body   []byte
	size   int
}

// compressedPages returns every page body of the unencrypted file b.
func compressedPages(b []byte) ([]compressedPage, error) {
	f, err := column.Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, err
	}
	meta := f.MetaData()
	var out []compressedPage
	for _, rg := range meta.RowGroups {
		for i := range rg.Columns {
			c := &rg.Columns[i]
			rng, err := meta.ColumnChunkRange(c, int64(len(b)))
			if err != nil {
				return nil, err
			}
			chunk, err := format.ReadColumnChunk(nil, bytes.NewReader(b), rng)
			if err != nil {
				return nil, err
			}
			w := format.NewPageWalker(chunk, rng)
			for w.Next() {
				h := w.Header()
				out = append(out, compressedPage{i, c.MetaData.Codec, bytes.Clone(w.Body()), int(h.UncompressedPageSize)})
			}
			if err := w.Err(); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// BenchmarkDecryptCodec times the codec alone on the pages of each
// generated file of BenchmarkDecrypt (unencrypted: the same page bodies the
// decrypting readers decompress): impl=ours decompresses every page with
// the codecfactory column.Open uses (native zstd, libdeflate, brotli; Go
// snappy and LZ4), impl=arrow with arrow-go's codecs (klauspost's s2, zstd
// and gzip, andybalholm's brotli, pierrec's LZ4), each into one reused
// buffer. It is the floor of each reader's time in BenchmarkDecrypt: what
// remains is decryption, page walk and decoding. SetBytes is the pages'
// decompressed bytes.
func BenchmarkDecryptCodec(b *testing.B) {
	for _, cd := range decryptCodecs {
		if cd.name == "uncompressed" {
			continue
		}
		for _, dict := range []bool{false, true} {
			kind := "plain"
			if dict {
				kind = "dict"
			}
			b.Run("gen-"+cd.name+"-"+kind, func(b *testing.B) {
				plain, err := generatedEncrypted(cd.codec, dict, nil)
				if err != nil {
					b.Fatal(err)
				}
				pages, err := compressedPages(plain)
				if err != nil {
					b.Fatal(err)
				}
				benchCodecs(b, cd.codec, pages)
			})
		}
	}
}

// benchCodecs times our codec and arrow-go's on pages, after checking once
// that they give the same bytes; SetBytes is the pages' decompressed bytes.
func benchCodecs(b *testing.B, codec compress.Compression, pages []compressedPage) {
	var size int64
	for _, p := range pages {
		size += int64(p.size)
	}
	factory, err := codecfactory.New()
	if err != nil {
		b.Fatal(err)
	}
	arrowCodec, err := compress.GetCodec(codec)
	if err != nil {
		b.Fatal(err)
	}
	var ours, theirs []byte
	runners := []struct {
		name string
		run  func(p compressedPage) ([]byte, error)
	}{
		{"impl=ours", func(p compressedPage) ([]byte, error) {
			// Decompress caps its result at the page's size: keep the
			// buffer, as column's reader does.
			out, err := factory.Decompress(codecfactory.Codec(p.codec), ours[:0], p.body, p.size)
			if cap(out) > cap(ours) {
				ours = out[:0]
			}
			return out, err
		}},
		{"impl=arrow", func(p compressedPage) ([]byte, error) {
			theirs = slices.Grow(theirs[:0], p.size)[:p.size]
			return compress.Decode(arrowCodec, theirs, p.body)
		}},
	}
	// Check once that both give the same bytes.
	for _, p := range pages {
		x, err := runners[0].run(p)
		if err != nil {
			b.Fatal(err)
		}
		y, err := runners[1].run(p)
		if err != nil {
			b.Fatal(err)
		}
		if !bytes.Equal(x, y) || len(x) != p.size {
			b.Fatalf("codecs disagree on a page of %d bytes", p.size)
		}
	}
	for _, r := range runners {
		b.Run(r.name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			cpu := cpuTime()
			for b.Loop() {
				for _, p := range pages {
					if _, err := r.run(p); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkDecryptColumn splits the rows of BenchmarkDecrypt that stay
// below 2x (the generated file without dictionaries, SNAPPY, ZSTD and
// BROTLI, AES_GCM_V1) by column: each reader reads one column of the file
// (impl=ours, impl=arrow, impl=ours-plaintext as in BenchmarkDecrypt), and
// codec/impl=ours and codec/impl=arrow time each side's codec alone on that
// column's pages (as BenchmarkDecryptCodec). Ours minus ours-plaintext is
// the cost of decryption, ours-plaintext minus codec/impl=ours that of the
// page walk and decoding.
func BenchmarkDecryptColumn(b *testing.B) {
	c := &encConfigs[0] // uniform-gcm
	for _, cd := range decryptCodecs {
		if cd.name != "snappy" && cd.name != "zstd" && cd.name != "brotli" {
			continue
		}
		for col, name := range []string{"ts", "price", "name"} {
			b.Run("gen-"+cd.name+"-plain-"+c.name+"/col="+name, func(b *testing.B) {
				data, err := generatedEncrypted(cd.codec, false, c)
				if err != nil {
					b.Fatal(err)
				}
				plain, err := generatedEncrypted(cd.codec, false, nil)
				if err != nil {
					b.Fatal(err)
				}
				pages, err := compressedPages(plain)
				if err != nil {
					b.Fatal(err)
				}
				var colPages []compressedPage
				var size int64
				for _, p := range pages {
					if p.column == col {
						colPages = append(colPages, p)
						size += int64(p.size)
					}
				}
				ours := func(data []byte, opts ...column.Option) func() (benchRunner, error) {
					return func() (benchRunner, error) {
						o, err := newOursBench(data, opts...)
						if err != nil {
							return nil, err
						}
						o.column = col
						return o, nil
					}
				}
				benchDecryptRunners(b, size, []decryptRunner{
					{"impl=ours", ours(data, column.WithDecryption(c.ourKeys()))},
					{"impl=arrow", func() (benchRunner, error) {
						a, err := newArrowBench(data, arrowDecryptOption(c.arrowKeys()))
						if err != nil {
							return nil, err
						}
						a.column = col
						return a, nil
					}},
					{"impl=ours-plaintext", ours(plain)},
				})
				b.Run("codec", func(b *testing.B) { benchCodecs(b, cd.codec, colPages) })
			})
		}
	}
}
