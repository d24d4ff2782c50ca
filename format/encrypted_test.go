package format

import (
	"bytes"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/encryption"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

func TestFileCryptoMetaData(t *testing.T) {
	yes := true
	for _, m := range []FileCryptoMetaData{
		{EncryptionAlgorithm: EncryptionAlgorithm{Kind: AesGcmV1, AadFileUnique: []byte("uniq")}, KeyMetadata: []byte("kf")},
		{EncryptionAlgorithm: EncryptionAlgorithm{Kind: AesGcmCtrV1, AadPrefix: []byte("p"), AadFileUnique: []byte("u"), SupplyAadPrefix: &yes}},
	} {
		b := AppendFileCryptoMetaData(nil, &m)
		got, n, err := DecodeFileCryptoMetaData(append(bytes.Clone(b), "module after it"...))
		require.NoError(t, err)
		require.Equal(t, len(b), n)
		require.Equal(t, &m, got)
	}
	// encryption_algorithm is required.
	_, _, err := DecodeFileCryptoMetaData([]byte{0x28, 0x02, 'k', 'f', 0})
	require.ErrorIs(t, err, ErrCorrupt)
	require.ErrorContains(t, err, "encryption_algorithm")
	for n := range len(AppendFileCryptoMetaData(nil, &FileCryptoMetaData{KeyMetadata: []byte("kf")})) {
		_, _, err := DecodeFileCryptoMetaData(AppendFileCryptoMetaData(nil, &FileCryptoMetaData{KeyMetadata: []byte("kf")})[:n])
		require.ErrorIs(t, err, ErrCorrupt)
	}
}

func TestColumnMetaDataRoundTrip(t *testing.T) {
	off := int64(77)
	m := ColumnMetaData{Type: Double, Encodings: []Encoding{Plain}, PathInSchema: []string{"a", "b"}, Codec: 1,
		NumValues: 5, TotalUncompressedSize: 10, TotalCompressedSize: 9, DataPageOffset: 4, DictionaryPageOffset: &off}
	got, err := DecodeColumnMetaData(AppendColumnMetaData(nil, &m))
	require.NoError(t, err)
	require.Equal(t, &m, got)
	_, err = DecodeColumnMetaData([]byte{0})
	require.ErrorIs(t, err, ErrCorrupt)
}

func openCorpus(t *testing.T, name string) (*os.File, int64) {
	fh, err := os.Open(testcorpus.Data(t, name))
	require.NoError(t, err)
	t.Cleanup(func() { fh.Close() })
	st, err := fh.Stat()
	require.NoError(t, err)
	return fh, st.Size()
}

var testFooterKeys = &encryption.Properties{FooterKey: []byte("0123456789012345"),
	ColumnKeys: map[string][]byte{"double_field": []byte("1234567890123450"), "float_field": []byte("1234567890123451")}}

func TestReadFooterDecrypt(t *testing.T) {
	// Without keys: PARE is ErrEncrypted, a plaintext footer reads.
	fh, size := openCorpus(t, "encrypt_columns_and_footer.parquet.encrypted")
	_, _, err := ReadFooterDecrypt(fh, size, nil)
	require.ErrorIs(t, err, ErrEncrypted)
	m, dec, err := ReadFooterDecrypt(fh, size, testFooterKeys)
	require.NoError(t, err)
	require.Equal(t, encryption.AesGcmV1, dec.Algorithm())
	require.EqualValues(t, 50, m.NumRows)
	require.Len(t, m.Schema, 9)

	fh, size = openCorpus(t, "encrypt_columns_plaintext_footer.parquet.encrypted")
	m, dec, err = ReadFooterDecrypt(fh, size, nil)
	require.NoError(t, err)
	require.Nil(t, dec)
	require.NotNil(t, m.EncryptionAlgorithm)
	require.True(t, m.HasEncryptedColumns())
	_, dec, err = ReadFooterDecrypt(fh, size, testFooterKeys)
	require.NoError(t, err)
	require.NotNil(t, dec)

	// A plaintext file is refused when keys are given, unless allowed.
	fh, size = openCorpus(t, "alltypes_plain.parquet")
	_, _, err = ReadFooterDecrypt(fh, size, testFooterKeys)
	require.ErrorIs(t, err, encryption.ErrDecrypt)
	allow := *testFooterKeys
	allow.PlaintextFilesAllowed = true
	m, dec, err = ReadFooterDecrypt(fh, size, &allow)
	require.NoError(t, err)
	require.Nil(t, dec)
	require.EqualValues(t, 8, m.NumRows)
}

// TestReadFooterDecryptDamaged flips every byte of the footers of an
// encrypted and a signed plaintext footer: each gives an error, never
// metadata (the footer module and the signature cover every byte, the
// crypto metadata's AAD fields feed the file AAD).
func TestReadFooterDecryptDamaged(t *testing.T) {
	for _, name := range []string{"encrypt_columns_and_footer.parquet.encrypted", "encrypt_columns_plaintext_footer.parquet.encrypted"} {
		b, err := os.ReadFile(testcorpus.Data(t, name))
		require.NoError(t, err)
		want, _, err := ReadFooterDecrypt(bytes.NewReader(b), int64(len(b)), testFooterKeys)
		require.NoError(t, err)
		n := int(uint32(b[len(b)-8]) | uint32(b[len(b)-7])<<8 | uint32(b[len(b)-6])<<16 | uint32(b[len(b)-5])<<24)
		passed := 0
		for i := len(b) - 8 - n; i < len(b); i++ {
			d := bytes.Clone(b)
			d[i] ^= 0x40
			m, _, err := ReadFooterDecrypt(bytes.NewReader(d), int64(len(d)), testFooterKeys)
			if err == nil {
				// The signature and the footer module cover every byte
				// but the crypto metadata's own: a flip there that
				// changes nothing the decryption uses (the key metadata,
				// unused with an explicit key; a false boolean moved to
				// an unknown field id, which reads as its default) passes,
				// and must give the same footer.
				require.Equal(t, want, m, "%s: byte %d flipped", name, i)
				passed++
			}
		}
		t.Logf("%s: %d of %d flipped footer bytes change nothing", name, passed, n+8)
	}
}

// TestPageWalkerEncryptedInMemory walks encrypted chunks read into memory
// and streamed, and compares what the two walks decrypt.
func TestPageWalkerEncryptedInMemory(t *testing.T) {
	for _, name := range []string{"encrypt_columns_and_footer.parquet.encrypted", "encrypt_columns_and_footer_ctr.parquet.encrypted", "uniform_encryption.parquet.encrypted"} {
		fh, size := openCorpus(t, name)
		m, dec, err := ReadFooterDecrypt(fh, size, testFooterKeys)
		require.NoError(t, err)
		pages := 0
		for j := range m.RowGroups[0].Columns {
			cc := &m.RowGroups[0].Columns[j]
			ci, err := DecryptColumnChunk(dec, cc, 0, j)
			require.NoError(t, err)
			if ci == nil {
				continue
			}
			_, err = m.ColumnChunkRange(cc, size)
			require.ErrorIs(t, err, ErrEncrypted, "the plain range refuses encrypted chunks")
			rng, err := m.EncryptedChunkRange(cc, size)
			require.NoError(t, err)
			chunk, err := ReadColumnChunk(nil, fh, rng)
			require.NoError(t, err)
			var d1, d2 encryption.ChunkDecryptor
			require.NoError(t, d1.Reset(dec, ci, 0, j))
			require.NoError(t, d2.Reset(dec, ci, 0, j))
			var mem, stream PageWalker
			mem.Reset(chunk, rng)
			mem.SetDecryptor(&d1)
			stream.ResetReaderAt(fh, rng, nil)
			stream.SetDecryptor(&d2)
			for mem.Next() {
				require.True(t, stream.Next())
				require.Equal(t, *mem.Header(), *stream.Header())
				require.Equal(t, mem.Body(), stream.Body())
				require.Equal(t, mem.Offset(), stream.Offset())
				require.Len(t, mem.Body(), int(mem.Header().CompressedPageSize)-encryption.LengthSize-encryption.NonceSize-tagOf(dec))
				pages++
			}
			require.NoError(t, mem.Err())
			require.False(t, stream.Next())
			require.NoError(t, stream.Err())
			// Without the decryptor the walk fails on the encrypted
			// header.
			mem.Reset(chunk, rng)
			require.False(t, mem.Next())
			require.ErrorIs(t, mem.Err(), ErrCorrupt)
		}
		require.NotZero(t, pages, name)
	}
}

// tagOf is the tag bytes of the pages of dec's algorithm.
func tagOf(dec *encryption.FileDecryptor) int {
	if dec.Algorithm() == encryption.AesGcmCtrV1 {
		return 0
	}
	return encryption.TagSize
}
