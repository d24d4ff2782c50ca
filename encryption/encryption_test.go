package encryption

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/internal/errs"
)

var testKey = []byte("0123456789012345")

// gcmModule encrypts plain as a GCM module with the standard library
// directly, as a writer does.
func gcmModule(t testing.TB, key, nonce, plain, aad []byte) []byte {
	block, err := aes.NewCipher(key)
	require.NoError(t, err)
	g, err := cipher.NewGCM(block)
	require.NoError(t, err)
	body := g.Seal(append([]byte(nil), nonce...), nonce, plain, aad)
	return append(binary.LittleEndian.AppendUint32(nil, uint32(len(body))), body...)
}

// ctrModule encrypts plain as an AES_GCM_CTR_V1 page module.
func ctrModule(t testing.TB, key, nonce, plain []byte) []byte {
	block, err := aes.NewCipher(key)
	require.NoError(t, err)
	iv := append(append([]byte(nil), nonce...), 0, 0, 0, 1)
	ct := make([]byte, len(plain))
	cipher.NewCTR(block, iv).XORKeyStream(ct, plain)
	body := append(append([]byte(nil), nonce...), ct...)
	return append(binary.LittleEndian.AppendUint32(nil, uint32(len(body))), body...)
}

func TestModuleAAD(t *testing.T) {
	file := []byte("prefixUNIQ")
	for _, tc := range []struct {
		t                 ModuleType
		rowGroup, col, pg int
		want              []byte
	}{
		{Footer, 5, 6, 7, []byte("prefixUNIQ\x00")},
		{ColumnMetaData, 1, 2, 3, []byte("prefixUNIQ\x01\x01\x00\x02\x00")},
		{DataPage, 0x102, 0x7fff, 0x203, []byte("prefixUNIQ\x02\x02\x01\xff\x7f\x03\x02")},
		{DictionaryPage, 1, 2, 3, []byte("prefixUNIQ\x03\x01\x00\x02\x00")},
		{DataPageHeader, 1, 2, 3, []byte("prefixUNIQ\x04\x01\x00\x02\x00\x03\x00")},
		{DictionaryPageHeader, 1, 2, 3, []byte("prefixUNIQ\x05\x01\x00\x02\x00")},
		{ColumnIndex, 1, 2, 3, []byte("prefixUNIQ\x06\x01\x00\x02\x00")},
		{OffsetIndex, 1, 2, 3, []byte("prefixUNIQ\x07\x01\x00\x02\x00")},
		{BloomFilterHeader, 1, 2, 3, []byte("prefixUNIQ\x08\x01\x00\x02\x00")},
		{BloomFilterBitset, 1, 2, 3, []byte("prefixUNIQ\x09\x01\x00\x02\x00")},
	} {
		got, err := AppendModuleAAD(nil, file, tc.t, tc.rowGroup, tc.col, tc.pg)
		require.NoError(t, err, tc.t.String())
		require.Equal(t, tc.want, got, tc.t.String())
	}
	for _, bad := range [][3]int{{MaxOrdinal + 1, 0, 0}, {0, MaxOrdinal + 1, 0}, {0, 0, MaxOrdinal + 1}, {-1, 0, 0}, {0, 0, -1}} {
		_, err := AppendModuleAAD(nil, file, DataPage, bad[0], bad[1], bad[2])
		require.ErrorIs(t, err, ErrCorrupt, "%v", bad)
		require.ErrorIs(t, err, errs.ErrCorrupt)
	}
}

func TestGCM(t *testing.T) {
	c, err := NewCipher(testKey)
	require.NoError(t, err)
	nonce := []byte("abcdefghijkl")
	plain := []byte("the plaintext of a module")
	aad := []byte("aad")
	m := gcmModule(t, testKey, nonce, plain, aad)
	got, err := c.DecryptGCM(nil, m, aad)
	require.NoError(t, err)
	require.Equal(t, plain, got)
	// dst is reused by capacity.
	dst := make([]byte, 0, 100)
	got, err = c.DecryptGCM(dst, m, aad)
	require.NoError(t, err)
	require.Equal(t, &dst[:1][0], &got[0])

	// Every flipped bit of the module, the AAD or the key fails, with no
	// plaintext.
	for i := range len(m) * 8 {
		b := bytes.Clone(m)
		b[i/8] ^= 1 << (i % 8)
		got, err := c.DecryptGCM(nil, b, aad)
		require.ErrorIs(t, err, ErrDecrypt, "bit %d", i)
		require.ErrorIs(t, err, errs.ErrDecrypt)
		require.NotErrorIs(t, err, errs.ErrCorrupt)
		require.Empty(t, got)
	}
	_, err = c.DecryptGCM(nil, m, []byte("aae"))
	require.ErrorIs(t, err, ErrDecrypt)
	other, err := NewCipher([]byte("0123456789012346"))
	require.NoError(t, err)
	_, err = other.DecryptGCM(nil, m, aad)
	require.ErrorIs(t, err, ErrDecrypt)

	// Truncated modules, and lengths past the bytes.
	for n := range len(m) {
		_, err := c.DecryptGCM(nil, m[:n], aad)
		require.ErrorIs(t, err, ErrDecrypt, "%d bytes", n)
	}
	short := gcmModule(t, testKey, nonce, nil, aad)
	_, err = c.DecryptGCM(nil, short, aad)
	require.NoError(t, err, "an empty plaintext is a module")
	tiny := binary.LittleEndian.AppendUint32(nil, NonceSize+TagSize-1)
	tiny = append(tiny, make([]byte, NonceSize+TagSize-1)...)
	_, err = c.DecryptGCM(nil, tiny, aad)
	require.ErrorIs(t, err, ErrDecrypt)
	huge := bytes.Clone(m)
	binary.LittleEndian.PutUint32(huge, 0xffffffff)
	_, err = c.DecryptGCM(nil, huge, aad)
	require.ErrorIs(t, err, ErrDecrypt)
}

func TestCTR(t *testing.T) {
	c, err := NewCipher(testKey)
	require.NoError(t, err)
	nonce := []byte("abcdefghijkl")
	plain := bytes.Repeat([]byte("0123456789abcdefXYZ"), 100)
	m := ctrModule(t, testKey, nonce, plain)
	got, err := c.DecryptCTR(nil, m)
	require.NoError(t, err)
	require.Equal(t, plain, got)
	for n := range LengthSize + NonceSize {
		_, err := c.DecryptCTR(nil, m[:n])
		require.ErrorIs(t, err, ErrDecrypt)
	}
}

func TestSignature(t *testing.T) {
	c, err := NewCipher(testKey)
	require.NoError(t, err)
	footer := []byte("footer bytes")
	aad := []byte("file aad\x00")
	m := gcmModule(t, testKey, []byte("abcdefghijkl"), footer, aad)
	sig := append(m[LengthSize:LengthSize+NonceSize:LengthSize+NonceSize], m[len(m)-TagSize:]...)
	_, err = c.VerifySignature(nil, footer, sig, aad)
	require.NoError(t, err)
	for i := range sig {
		s := bytes.Clone(sig)
		s[i] ^= 0x80
		_, err = c.VerifySignature(nil, footer, s, aad)
		require.ErrorIs(t, err, ErrDecrypt)
	}
	_, err = c.VerifySignature(nil, []byte("footer bytez"), sig, aad)
	require.ErrorIs(t, err, ErrDecrypt)
	_, err = c.VerifySignature(nil, footer, sig[:27], aad)
	require.ErrorIs(t, err, ErrDecrypt)
}

func TestNewCipher(t *testing.T) {
	for _, n := range []int{16, 24, 32} {
		_, err := NewCipher(make([]byte, n))
		require.NoError(t, err)
	}
	for _, n := range []int{0, 1, 15, 17, 33} {
		_, err := NewCipher(make([]byte, n))
		require.ErrorIs(t, err, ErrInvalidKey)
	}
}

func TestFileAAD(t *testing.T) {
	yes := true
	_ = yes
	for _, tc := range []struct {
		name          string
		given, stored []byte
		supply        bool
		want          string
		err           error
	}{
		{"stored", nil, []byte("pre"), false, "preUNIQ", nil},
		{"none", nil, nil, false, "UNIQ", nil},
		{"supplied", []byte("pre"), nil, true, "preUNIQ", nil},
		{"supplied and stored", []byte("pre"), []byte("pre"), false, "preUNIQ", nil},
		{"supplied, other stored", []byte("prf"), []byte("pre"), false, "", ErrDecrypt},
		{"missing", nil, nil, true, "", ErrNoKey},
	} {
		d, err := NewFileDecryptor(&Properties{AADPrefix: tc.given}, AesGcmV1, tc.stored, []byte("UNIQ"), tc.supply, nil)
		if tc.err != nil {
			require.ErrorIs(t, err, tc.err, tc.name)
			continue
		}
		require.NoError(t, err, tc.name)
		require.Equal(t, tc.want, string(d.FileAAD()), tc.name)
	}
	_, err := NewFileDecryptor(nil, 3, nil, nil, false, nil)
	require.ErrorIs(t, err, ErrUnsupported)
}

func TestKeys(t *testing.T) {
	calls := 0
	p := &Properties{
		ColumnKeys: map[string][]byte{"a.b": testKey},
		KeyRetriever: func(md []byte) ([]byte, error) {
			calls++
			switch string(md) {
			case "kf":
				return []byte("1123456789012345"), nil
			case "bad":
				return []byte("x"), nil
			}
			return nil, errors.New("unknown key id")
		},
	}
	d, err := NewFileDecryptor(p, AesGcmCtrV1, nil, []byte("u"), false, []byte("kf"))
	require.NoError(t, err)
	f1, err := d.FooterCipher()
	require.NoError(t, err)
	f2, err := d.FooterCipher()
	require.NoError(t, err)
	require.Same(t, f1, f2, "one Cipher per key")
	c, err := d.ColumnCipher("a.b", []byte("ignored"))
	require.NoError(t, err)
	require.NotSame(t, f1, c)
	_, err = d.ColumnCipher("a.c", []byte("other"))
	require.ErrorIs(t, err, ErrNoKey)
	require.ErrorContains(t, err, "a.c")
	require.ErrorContains(t, err, "unknown key id")
	_, err = d.ColumnCipher("a.d", []byte("bad"))
	require.ErrorIs(t, err, ErrInvalidKey)
	require.ErrorContains(t, err, "a.d")

	d, err = NewFileDecryptor(&Properties{}, AesGcmV1, nil, nil, false, nil)
	require.NoError(t, err)
	_, err = d.FooterCipher()
	require.ErrorIs(t, err, ErrNoKey)
}

// TestChunkDecryptor checks the page walk's decryption: header AADs (a
// dictionary page header is found whichever is tried first), page AADs
// with ordinals, and no allocation once warm for AES_GCM_V1.
func TestChunkDecryptor(t *testing.T) {
	for _, alg := range []Algorithm{AesGcmV1, AesGcmCtrV1} {
		d, err := NewFileDecryptor(&Properties{FooterKey: testKey}, alg, []byte("p"), []byte("u"), false, nil)
		require.NoError(t, err)
		c, err := d.FooterCipher()
		require.NoError(t, err)
		var cd ChunkDecryptor
		require.NoError(t, cd.Reset(d, c, 3, 4))
		aad := func(t ModuleType, page int) []byte {
			b, err := AppendModuleAAD(nil, d.FileAAD(), t, 3, 4, page)
			require.NoError(nil, err)
			return b
		}
		nonce := []byte("nonce-nonce!")
		dictHeader := gcmModule(t, testKey, nonce, []byte("dict header"), aad(DictionaryPageHeader, 0))
		dataHeader := gcmModule(t, testKey, nonce, []byte("data header 7"), aad(DataPageHeader, 7))
		for _, first := range []bool{true, false} {
			plain, size, dict, err := cd.PageHeader(append(bytes.Clone(dictHeader), "trailing"...), 0, first)
			require.NoError(t, err)
			require.True(t, dict)
			require.Equal(t, len(dictHeader), size)
			require.Equal(t, "dict header", string(plain))
			plain, _, dict, err = cd.PageHeader(dataHeader, 7, first)
			require.NoError(t, err)
			require.False(t, dict)
			require.Equal(t, "data header 7", string(plain))
		}
		_, _, _, err = cd.PageHeader(dataHeader, 6, false)
		require.ErrorIs(t, err, ErrDecrypt, "wrong page ordinal")

		page := bytes.Repeat([]byte("page"), 1000)
		var module []byte
		if alg == AesGcmV1 {
			module = gcmModule(t, testKey, nonce, page, aad(DataPage, 7))
			_, err = cd.Page(module, false, 8)
			require.ErrorIs(t, err, ErrDecrypt)
			_, err = cd.Page(module, true, 0)
			require.ErrorIs(t, err, ErrDecrypt)
		} else {
			module = ctrModule(t, testKey, nonce, page)
		}
		got, err := cd.Page(module, false, 7)
		require.NoError(t, err)
		require.Equal(t, page, got)
		allocs := testing.AllocsPerRun(100, func() {
			if _, _, _, err := cd.PageHeader(dataHeader, 7, true); err != nil {
				t.Fatal(err)
			}
			if _, err := cd.Page(module, false, 7); err != nil {
				t.Fatal(err)
			}
		})
		if alg == AesGcmV1 {
			require.Zero(t, allocs)
		} else {
			require.LessOrEqual(t, allocs, 2.0, "one CTR stream per page")
		}
	}
}
