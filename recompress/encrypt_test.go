package recompress_test

import (
	"bytes"
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec"
	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/encryption"
	"github.com/pqcodec/pqcodec/recompress"
)

var (
	rwFooter = []byte("0123456789012345")
	rwKeyA   = []byte("1234567890123450")
	rwKeyB   = []byte("12345678901234567890123456789012")
)

// rwConfig is an output encryption with the keys that read it; column
// keys go to the first and last leaf.
type rwConfig struct {
	name string
	wp   func(first, last string) *encryption.WriteProperties
	rp   func(first, last string) *encryption.Properties
}

var rwConfigs = []rwConfig{
	{"uniform-gcm", func(_, _ string) *encryption.WriteProperties {
		return &encryption.WriteProperties{FooterKey: rwFooter, FooterKeyMetadata: []byte("kf")}
	}, func(_, _ string) *encryption.Properties { return &encryption.Properties{FooterKey: rwFooter} }},
	{"columns-ctr-plaintext-footer", func(first, last string) *encryption.WriteProperties {
		return &encryption.WriteProperties{Algorithm: encryption.AesGcmCtrV1, FooterKey: rwFooter, PlaintextFooter: true,
			ColumnKeys: map[string]encryption.ColumnKey{first: {Key: rwKeyA}, last: {Key: rwKeyB}}}
	}, func(first, last string) *encryption.Properties {
		return &encryption.Properties{FooterKey: rwFooter, ColumnKeys: map[string][]byte{first: rwKeyA, last: rwKeyB}}
	}},
	{"columns-gcm-aad-prefix-supplied", func(first, _ string) *encryption.WriteProperties {
		return &encryption.WriteProperties{FooterKey: rwKeyB, AADPrefix: []byte("tbl"), DisableAADPrefixStorage: true,
			ColumnKeys: map[string]encryption.ColumnKey{first: {Key: rwKeyA, KeyMetadata: []byte("ka")}}}
	}, func(first, _ string) *encryption.Properties {
		return &encryption.Properties{FooterKey: rwKeyB, AADPrefix: []byte("tbl"), ColumnKeys: map[string][]byte{first: rwKeyA}}
	}},
}

func leafPaths(t *testing.T, b []byte, opts ...column.Option) (first, last string) {
	f, err := column.Open(bytes.NewReader(b), int64(len(b)), opts...)
	require.NoError(t, err)
	l := f.Schema().Leaves()
	join := func(p []string) string {
		s := p[0]
		for _, x := range p[1:] {
			s += "." + x
		}
		return s
	}
	return join(l[0].Path()), join(l[len(l)-1].Path())
}

// indexes returns the page indexes and bloom filters of every chunk, in a
// comparable form.
func indexes(t *testing.T, b []byte, opts ...column.Option) []any {
	f, err := column.Open(bytes.NewReader(b), int64(len(b)), opts...)
	require.NoError(t, err)
	var out []any
	for rg := range f.NumRowGroups() {
		for col := range f.NumColumns() {
			ci, oi, err := f.PageIndex(rg, col)
			require.NoError(t, err)
			bf, err := f.BloomFilter(rg, col)
			require.NoError(t, err)
			var rows []int64
			if oi != nil {
				for _, l := range oi.PageLocations {
					rows = append(rows, l.FirstRowIndex)
				}
			}
			var bits []byte
			if bf != nil {
				bits = bf.MarshalTo(nil)
			}
			out = append(out, ci, rows, bits)
		}
	}
	return out
}

// TestRewriteEncryption encrypts a plaintext file with each configuration,
// re-keys each result to the next configuration, and decrypts it again,
// each time without decoding values and with codec changes or kept pages:
// the values, page indexes and bloom filters read the same throughout.
func TestRewriteEncryption(t *testing.T) {
	src, err := os.ReadFile("../testdata/foreign/arrow-go/page_index_bloom.parquet")
	require.NoError(t, err)
	want, err := digest(src)
	require.NoError(t, err)
	wantIdx := indexes(t, src)
	first, last := leafPaths(t, src)
	for k, c := range rwConfigs {
		t.Run(c.name, func(t *testing.T) {
			codec := recompress.WithCodec(recompress.Target{Codec: codecfactory.Snappy})
			if k%2 == 1 {
				codec = recompress.WithCodec(recompress.Target{Codec: recompress.Keep})
			}
			enc, _, err := rewrite(src, codec, recompress.WithEncryption(c.wp(first, last)))
			require.NoError(t, err)
			keys := column.WithDecryption(c.rp(first, last))
			got, err := digest(enc, keys)
			require.NoError(t, err)
			require.Equal(t, want, got)
			require.Equal(t, wantIdx, indexes(t, enc, keys))
			_, err = digest(enc)
			require.Error(t, err)
			require.NoError(t, verify(src, nil, enc, c.rp(first, last)))
			wrong := c.rp(first, last)
			wrong.FooterKey = []byte("0123456789abcdef")
			require.ErrorIs(t, verify(src, nil, enc, wrong), pqcodec.ErrDecrypt)

			next := rwConfigs[(k+1)%len(rwConfigs)]
			rekeyed, _, err := rewrite(enc, codec, recompress.WithDecryption(c.rp(first, last)), recompress.WithEncryption(next.wp(first, last)))
			require.NoError(t, err)
			nextKeys := column.WithDecryption(next.rp(first, last))
			got, err = digest(rekeyed, nextKeys)
			require.NoError(t, err)
			require.Equal(t, want, got)
			require.Equal(t, wantIdx, indexes(t, rekeyed, nextKeys))
			require.NoError(t, verify(enc, c.rp(first, last), rekeyed, next.rp(first, last)))

			plain, _, err := rewrite(rekeyed, recompress.WithDecryption(next.rp(first, last)))
			require.NoError(t, err)
			got, err = digest(plain)
			require.NoError(t, err)
			require.Equal(t, want, got)
			require.Equal(t, wantIdx, indexes(t, plain))
			require.NoError(t, verify(rekeyed, next.rp(first, last), plain, nil))
			// Another file: a mismatch.
			other, _, err := rewrite(src, recompress.WithColumnCodec(first, recompress.Target{Codec: codecfactory.Gzip}))
			require.NoError(t, err)
			require.NoError(t, verify(src, nil, other, nil))
			tampered := slices.Clone(plain)
			tampered[len(tampered)/3] ^= 1
			require.Error(t, verify(src, nil, tampered, nil))

			// A wrong key, and a missing one.
			bad := c.rp(first, last)
			bad.FooterKey = []byte("0123456789abcdef")
			_, _, err = rewrite(enc, recompress.WithDecryption(bad))
			require.ErrorIs(t, err, pqcodec.ErrDecrypt)
			require.NotContains(t, err.Error(), "0123456789abcdef")
			_, _, err = rewrite(enc)
			require.ErrorIs(t, err, recompress.ErrEncrypted)
		})
	}
}

func verify(src []byte, sk *encryption.Properties, out []byte, ok *encryption.Properties) error {
	return recompress.VerifyDecrypt(bytes.NewReader(src), int64(len(src)), sk, bytes.NewReader(out), int64(len(out)), ok, nil)
}

// TestRewriteDecryptCorpus decrypts parquet-testing's encrypted files
// (parquet-java's and arrow's, with dictionaries and bloom filters) and
// encrypts them again: the values read as from the source with its keys.
func TestRewriteDecryptCorpus(t *testing.T) {
	keys := map[string][]byte{"kf": []byte("0123456789012345"), "kc1": []byte("1234567890123450"), "kc2": []byte("1234567890123451")}
	props := func() *encryption.Properties {
		return &encryption.Properties{KeyRetriever: func(md []byte) ([]byte, error) { return keys[string(md)], nil }}
	}
	for _, name := range []string{"uniform_encryption.parquet.encrypted", "encrypt_columns_plaintext_footer.parquet.encrypted",
		"encrypt_columns_and_footer_ctr.parquet.encrypted", "encrypt_columns_and_footer_bloom_filter.parquet.encrypted"} {
		t.Run(name, func(t *testing.T) {
			src := readCorpus(t, name)
			want, err := digest(src, column.WithDecryption(props()))
			require.NoError(t, err)
			plain, _, err := rewrite(src, recompress.WithDecryption(props()), recompress.WithCodec(recompress.Target{Codec: recompress.Keep}))
			require.NoError(t, err)
			got, err := digest(plain)
			require.NoError(t, err)
			require.Equal(t, want, got)
			wp := &encryption.WriteProperties{FooterKey: rwKeyB, Algorithm: encryption.AesGcmCtrV1}
			enc, _, err := rewrite(src, recompress.WithDecryption(props()), recompress.WithEncryption(wp))
			require.NoError(t, err)
			got, err = digest(enc, column.WithDecryption(&encryption.Properties{FooterKey: rwKeyB}))
			require.NoError(t, err)
			require.Equal(t, want, got)
		})
	}
}
