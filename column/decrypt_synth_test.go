package column

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"encoding/binary"
	"hash/crc32"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/encryption"
	"github.com/pqcodec/pqcodec/format"
)

// synthFile writes a one-column file (a required INT32 "a", footer key
// only, plaintext signed footer) whose chunk holds a dictionary page, two
// RLE_DICTIONARY v1 data pages and a PLAIN v2 data page, each page
// header and page an AES-GCM module with the AADs the specification
// gives, and each page header a CRC of its page as written, encrypted.
// corrupt, when it is not nil, may change a page header before it is
// encrypted.
func synthFile(t *testing.T, key []byte, corrupt func(page int, h *format.PageHeader)) []byte {
	t.Helper()
	block, err := aes.NewCipher(key)
	require.NoError(t, err)
	gcm, err := cipher.NewGCM(block)
	require.NoError(t, err)
	fileAAD := []byte("synthetic-file-unique")
	nonce := 0
	module := func(plain []byte, typ encryption.ModuleType, page int) []byte {
		aad, err := encryption.AppendModuleAAD(nil, fileAAD, typ, 0, 0, page)
		require.NoError(t, err)
		nonce++
		n := make([]byte, encryption.NonceSize)
		binary.LittleEndian.PutUint32(n, uint32(nonce))
		body := gcm.Seal(n, n, plain, aad)
		return append(binary.LittleEndian.AppendUint32(nil, uint32(len(body))), body...)
	}
	le32 := func(v ...int32) []byte {
		var b []byte
		for _, x := range v {
			b = binary.LittleEndian.AppendUint32(b, uint32(x))
		}
		return b
	}
	type page struct {
		h    format.PageHeader
		body []byte
	}
	pages := []page{
		{format.PageHeader{Type: format.DictionaryPage, HasDictionaryPageHeader: true,
			DictionaryPageHeader: format.DictionaryPageHeader{NumValues: 3, Encoding: format.Plain}}, le32(10, 20, 30)},
		{format.PageHeader{Type: format.DataPage, HasDataPageHeader: true,
			DataPageHeader: format.DataPageHeader{NumValues: 4, Encoding: format.RLEDictionary,
				DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE}}, []byte{2, 4 << 1, 1}},
		{format.PageHeader{Type: format.DataPage, HasDataPageHeader: true,
			DataPageHeader: format.DataPageHeader{NumValues: 4, Encoding: format.RLEDictionary,
				DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE}}, []byte{2, 4 << 1, 2}},
		{format.PageHeader{Type: format.DataPageV2, HasDataPageHeaderV2: true,
			DataPageHeaderV2: format.DataPageHeaderV2{NumValues: 3, NumRows: 3, Encoding: format.Plain, IsCompressed: false}}, le32(1, 2, 3)},
	}
	out := []byte("PAR1")
	var dataOffset int64
	ordinal := 0
	for i, p := range pages {
		dict := p.h.Type == format.DictionaryPage
		pt, ht := encryption.DataPage, encryption.DataPageHeader
		if dict {
			pt, ht = encryption.DictionaryPage, encryption.DictionaryPageHeader
		} else if dataOffset == 0 {
			dataOffset = int64(len(out))
		}
		body := module(p.body, pt, ordinal)
		p.h.UncompressedPageSize = int32(len(p.body))
		p.h.CompressedPageSize = int32(len(body))
		p.h.CRC, p.h.HasCRC = int32(crc32.ChecksumIEEE(body)), true
		if corrupt != nil {
			corrupt(i, &p.h)
		}
		out = append(out, module(format.AppendPageHeader(nil, &p.h), ht, ordinal)...)
		out = append(out, body...)
		if !dict {
			ordinal++
		}
	}
	dictOffset := int64(4)
	one := int32(1)
	req := format.Required
	i32 := format.Int32
	m := &format.FileMetaData{
		Version: 1, NumRows: 11,
		Schema: []format.SchemaElement{{Name: "schema", NumChildren: &one}, {Name: "a", Type: &i32, RepetitionType: &req}},
		RowGroups: []format.RowGroup{{NumRows: 11, TotalByteSize: int64(len(out) - 4), Columns: []format.ColumnChunk{{
			MetaData: &format.ColumnMetaData{Type: format.Int32, Encodings: []format.Encoding{format.Plain, format.RLEDictionary},
				PathInSchema: []string{"a"}, NumValues: 11, TotalUncompressedSize: int64(len(out) - 4),
				TotalCompressedSize: int64(len(out) - 4), DataPageOffset: dataOffset, DictionaryPageOffset: &dictOffset},
			CryptoMetadata: &format.ColumnCryptoMetaData{Kind: format.EncryptionWithFooterKey},
		}}}},
		EncryptionAlgorithm: &format.EncryptionAlgorithm{Kind: format.AesGcmV1, AadFileUnique: fileAAD},
	}
	footer := format.AppendFileMetaData(nil, m)
	sealed := module(footer, encryption.Footer, 0)
	sig := append(sealed[4:4+encryption.NonceSize:4+encryption.NonceSize], sealed[len(sealed)-encryption.TagSize:]...)
	footer = append(footer, sig...)
	out = append(out, footer...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(footer)))
	return append(out, "PAR1"...)
}

// TestDecryptSynthetic reads a file written here to the specification:
// dictionary and data page AADs with page ordinals, a v2 page, and CRCs,
// computed on the encrypted pages as the format defines them, verified.
func TestDecryptSynthetic(t *testing.T) {
	key := []byte("synthetic-key-16")
	data := synthFile(t, key, nil)
	read := func(data []byte, opts ...Option) ([]int32, error) {
		f, err := Open(bytes.NewReader(data), int64(len(data)), append(opts, WithDecryption(&encryption.Properties{FooterKey: key}))...)
		if err != nil {
			return nil, err
		}
		r, err := f.Column(0, 0)
		if err != nil {
			return nil, err
		}
		var got []int32
		var p Page
		for {
			err := r.ReadPage(&p)
			if err == io.EOF {
				return got, nil
			}
			if err != nil {
				return got, err
			}
			got = append(got, p.Values.Int32s...)
		}
	}
	want := []int32{20, 20, 20, 20, 30, 30, 30, 30, 1, 2, 3}
	for _, verify := range []bool{false, true} {
		got, err := read(data, WithVerifyChecksums(verify))
		require.NoError(t, err)
		require.Equal(t, want, got)
	}
	// A CRC that does not match its encrypted page fails under
	// WithVerifyChecksums.
	bad := synthFile(t, key, func(page int, h *format.PageHeader) {
		if page == 2 {
			h.CRC++
		}
	})
	got, err := read(bad, WithVerifyChecksums(true))
	require.ErrorIs(t, err, ErrChecksum)
	require.Equal(t, want[:4], got)
	got, err = read(bad)
	require.NoError(t, err)
	require.Equal(t, want, got)
}
