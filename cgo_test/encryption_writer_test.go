package cgotest

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/encryption"
	"github.com/pqcodec/pqcodec/writer"
)

// ourEncConfig is one of our writer's encryption configurations, with the
// keys each reader needs. Column keys go to the first and last leaf; the
// other leaves stay in the clear.
type ourEncConfig struct {
	name            string
	ctr, plainFoot  bool
	columnKeys      bool
	prefix, storeIt bool
}

var ourEncConfigs = []ourEncConfig{
	{name: "uniform-gcm"},
	{name: "uniform-ctr", ctr: true},
	{name: "columns-gcm", columnKeys: true},
	{name: "columns-ctr", ctr: true, columnKeys: true},
	{name: "plaintext-footer-gcm", plainFoot: true, columnKeys: true},
	{name: "plaintext-footer-ctr", plainFoot: true, ctr: true, columnKeys: true},
	{name: "uniform-aad-prefix-stored", prefix: true, storeIt: true},
	{name: "columns-aad-prefix-supplied", columnKeys: true, prefix: true},
	{name: "plaintext-footer-ctr-aad-prefix-supplied", plainFoot: true, ctr: true, prefix: true},
}

// paths returns the dotted paths of the first and last leaf of the file.
func keyedPaths(t *testing.T, b []byte) []string {
	f, err := column.Open(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	leaves := f.Schema().Leaves()
	first, last := strings.Join(leaves[0].Path(), "."), strings.Join(leaves[len(leaves)-1].Path(), ".")
	if first == last {
		return []string{first}
	}
	return []string{first, last}
}

func (c ourEncConfig) props(paths []string) (*encryption.WriteProperties, *encryption.Properties, *parquet.FileDecryptionProperties) {
	wp := &encryption.WriteProperties{FooterKey: []byte(encFooterKey), FooterKeyMetadata: []byte("kf"), PlaintextFooter: c.plainFoot}
	if c.ctr {
		wp.Algorithm = encryption.AesGcmCtrV1
	}
	rp := &encryption.Properties{FooterKey: []byte(encFooterKey)}
	ao := []parquet.FileDecryptionOption{parquet.WithFooterKey(encFooterKey)}
	if c.columnKeys {
		keys := []string{encPriceKey, encNameKey}
		wp.ColumnKeys = map[string]encryption.ColumnKey{}
		rp.ColumnKeys = map[string][]byte{}
		am := parquet.ColumnPathToDecryptionPropsMap{}
		for i, p := range paths {
			wp.ColumnKeys[p] = encryption.ColumnKey{Key: []byte(keys[i]), KeyMetadata: []byte("kc" + string(rune('1'+i)))}
			rp.ColumnKeys[p] = []byte(keys[i])
			am[p] = parquet.NewColumnDecryptionProperties(p, parquet.WithDecryptKey(keys[i]))
		}
		ao = append(ao, parquet.WithColumnKeys(am))
	}
	if c.prefix {
		wp.AADPrefix, wp.DisableAADPrefixStorage = []byte(encAADPrefix), !c.storeIt
		if !c.storeIt {
			rp.AADPrefix = []byte(encAADPrefix)
			ao = append(ao, parquet.WithDecryptAadPrefix(encAADPrefix))
		}
	}
	return wp, rp, parquet.NewFileDecryptionProperties(ao...)
}

// TestWriterEncryptedReadByArrow writes files of arrow-go's and parquet-
// testing's with our writer under each encryption configuration (with
// dictionaries, page indexes and bloom filters, pages v1 and v2), and
// reads them with arrow-go's decrypting reader and ours: every chunk
// equals the plaintext source.
func TestWriterEncryptedReadByArrow(t *testing.T) {
	inputs := []string{"../testdata/foreign/arrow-go/default.parquet", "../testdata/foreign/arrow-go/page_index_bloom.parquet",
		"../testdata/foreign/arrow-go/v2.parquet"}
	for _, in := range inputs {
		src, err := os.ReadFile(in)
		require.NoError(t, err)
		want, _, err := readOurs(src)
		require.NoError(t, err)
		paths := keyedPaths(t, src)
		for k, c := range ourEncConfigs {
			t.Run(in[strings.LastIndex(in, "/")+1:]+"/"+c.name, func(t *testing.T) {
				wp, rp, ap := c.props(paths)
				opts := []writer.Option{writer.WithEncryption(wp), writer.WithCodec(codecfactory.Snappy),
					writer.WithBloomFilter(10_000, 0.01), writer.WithPageSize(16 << 10)}
				if k%2 == 1 {
					opts = append(opts, writer.WithPageVersion(2))
				}
				b, err := rewriteWithWriter(src, opts...)
				require.NoError(t, err)
				ours, _, err := readOurs(b, column.WithDecryption(rp))
				require.NoError(t, err)
				require.Empty(t, diffFiles(ours, want), "ours")
				arrow, err := readArrowDecrypt(b, ap)
				require.NoError(t, err)
				require.Empty(t, diffFiles(arrow, want), "arrow-go")
			})
		}
	}
}

// chunkBatch is one column chunk as one batch of our writer.
type chunkBatch struct {
	v        column.Values
	def, rep []int16
}

// readBatches reads every chunk of the file in b into one batch each.
func readBatches(b []byte) (*column.File, [][]chunkBatch, error) {
	f, err := column.Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, nil, err
	}
	out := make([][]chunkBatch, f.NumRowGroups())
	var p column.Page
	for rg := range out {
		out[rg] = make([]chunkBatch, f.NumColumns())
		for col, leaf := range f.Schema().Leaves() {
			r, err := f.Column(rg, col)
			if err != nil {
				return nil, nil, err
			}
			c := &out[rg][col]
			tl := 0
			if leaf.Element.TypeLength != nil {
				tl = int(*leaf.Element.TypeLength)
			}
			c.v.Reset(*leaf.Element.Type, tl)
			for {
				err := r.ReadPage(&p)
				if err != nil {
					if err == io.EOF {
						break
					}
					return nil, nil, err
				}
				appendBatch(&c.v, &c.def, &c.rep, &p)
			}
		}
	}
	return f, out, nil
}

type countingDiscard struct{ n int64 }

func (c *countingDiscard) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// BenchmarkWriteEncrypt writes the generated file of BenchmarkDecrypt
// (512Ki rows: a timestamp, a double with 2% nulls, a string with 5%
// nulls; SNAPPY, dictionaries) with our writer, in the clear and with
// every column and the footer encrypted (AES_GCM_V1, AES_GCM_CTR_V1):
// the difference of cpu-ns/op (the process's CPU time) is the cost of
// encryption, out-bytes what it encrypts. SetBytes is the values' size.
func BenchmarkWriteEncrypt(b *testing.B) {
	src, err := cachedInput("gen-snappy-plain", func() ([]byte, error) { return writeGenerated(compress.Codecs.Snappy, false) })
	if err != nil {
		b.Fatal(err)
	}
	f, batches, err := readBatches(src)
	if err != nil {
		b.Fatal(err)
	}
	size, err := uncompressedSize(src)
	if err != nil {
		b.Fatal(err)
	}
	codecs, err := codecfactory.New()
	if err != nil {
		b.Fatal(err)
	}
	write := func(out io.Writer, opts ...writer.Option) error {
		w, err := writer.New(out, f.Schema(), append([]writer.Option{writer.WithCodecs(codecs), writer.WithCodec(codecfactory.Snappy)}, opts...)...)
		if err != nil {
			return err
		}
		for rg := range batches {
			for col := range batches[rg] {
				c := &batches[rg][col]
				if err := w.Write(col, &c.v, c.def, c.rep); err != nil {
					return err
				}
			}
			if err := w.Flush(); err != nil {
				return err
			}
		}
		return w.Close()
	}
	for _, v := range []struct {
		name string
		wp   *encryption.WriteProperties
	}{
		{"enc=none", nil},
		{"enc=gcm", &encryption.WriteProperties{FooterKey: []byte(encFooterKey)}},
		{"enc=ctr", &encryption.WriteProperties{FooterKey: []byte(encFooterKey), Algorithm: encryption.AesGcmCtrV1}},
	} {
		b.Run(v.name, func(b *testing.B) {
			var opts []writer.Option
			if v.wp != nil {
				opts = append(opts, writer.WithEncryption(v.wp))
			}
			// Checked once: the file reads back as the source.
			var buf bytes.Buffer
			if err := write(&buf, opts...); err != nil {
				b.Fatal(err)
			}
			want, _, err := readOurs(src)
			if err != nil {
				b.Fatal(err)
			}
			got, _, err := readOurs(buf.Bytes(), column.WithDecryption(&encryption.Properties{FooterKey: []byte(encFooterKey), PlaintextFilesAllowed: true}))
			if err != nil {
				b.Fatal(err)
			}
			if d := diffFiles(got, want); d != "" {
				b.Fatal(d)
			}
			b.SetBytes(size)
			b.ReportAllocs()
			var out countingDiscard
			cpu := cpuTime()
			for b.Loop() {
				out.n = 0
				if err := write(&out, opts...); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(out.n), "out-bytes")
		})
	}
}
