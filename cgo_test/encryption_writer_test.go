package cgotest

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
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
