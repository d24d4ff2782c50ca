package encryption

import (
	"bytes"
	"errors"
	"testing"

	"github.com/pqcodec/pqcodec/internal/benchdata"
	"github.com/stretchr/testify/require"
)

// TestEncryptDecrypt encrypts the modules of a chunk with a ChunkEncryptor
// and decrypts them with a ChunkDecryptor (and, for the others, with the
// standard library's modules of gcmModule): the AADs agree, the nonces are
// fresh, and a module moved to another place (page ordinal, row group,
// column, type) does not decrypt.
func TestEncryptDecrypt(t *testing.T) {
	for _, alg := range []Algorithm{AesGcmV1, AesGcmCtrV1} {
		t.Run(alg.String(), func(t *testing.T) {
			fe, err := NewFileEncryptor(&WriteProperties{Algorithm: alg, FooterKey: testKey, AADPrefix: []byte("pre")})
			require.NoError(t, err)
			prefix, unique, supply := fe.AAD()
			require.Equal(t, []byte("pre"), prefix)
			require.Len(t, unique, AADFileUniqueSize)
			require.False(t, supply)
			fd, err := NewFileDecryptor(&Properties{FooterKey: testKey}, alg, prefix, unique, false, nil)
			require.NoError(t, err)
			require.Equal(t, fe.FileAAD(), fd.FileAAD())
			c := fe.FooterCipher()
			var ce ChunkEncryptor
			require.NoError(t, ce.Reset(fe, c, 0, 3))
			require.NoError(t, ce.SetRowGroup(2))
			header := []byte("a page header")
			page := bytes.Repeat([]byte("page bytes "), 100)
			hm, err := ce.AppendPageHeader([]byte("x"), header, false, 5)
			require.NoError(t, err)
			require.Equal(t, byte('x'), hm[0])
			hm = hm[1:]
			pm, err := ce.AppendPage(nil, page, false, 5)
			require.NoError(t, err)
			require.Len(t, pm, ce.PageModuleSize(len(page)))
			pm2, err := ce.AppendPage(nil, page, false, 5)
			require.NoError(t, err)
			require.NotEqual(t, pm[LengthSize:LengthSize+NonceSize], pm2[LengthSize:LengthSize+NonceSize], "nonce reused")

			var cd ChunkDecryptor
			require.NoError(t, cd.Reset(fd, c, 2, 3))
			got, size, dict, err := cd.PageHeader(append(hm, "more"...), 5, false)
			require.NoError(t, err)
			require.Equal(t, header, got)
			require.Equal(t, len(hm), size)
			require.False(t, dict)
			p, err := cd.Page(pm, false, 5)
			require.NoError(t, err)
			require.Equal(t, page, p)
			// Elsewhere, the header does not decrypt.
			_, _, _, err = cd.PageHeader(hm, 6, false)
			require.ErrorIs(t, err, ErrDecrypt)
			require.NoError(t, cd.Reset(fd, c, 1, 3))
			_, _, _, err = cd.PageHeader(hm, 5, false)
			require.ErrorIs(t, err, ErrDecrypt)
			if alg == AesGcmV1 {
				require.NoError(t, cd.Reset(fd, c, 2, 3))
				_, err = cd.Page(pm, true, 5)
				require.ErrorIs(t, err, ErrDecrypt)
			}
			// Other modules.
			mod, err := fe.AppendModule(c, nil, []byte("index"), ColumnIndex, 2, 3)
			require.NoError(t, err)
			got, err = fd.DecryptModule(c, nil, mod, ColumnIndex, 2, 3)
			require.NoError(t, err)
			require.Equal(t, []byte("index"), got)
			_, err = fd.DecryptModule(c, nil, mod, OffsetIndex, 2, 3)
			require.ErrorIs(t, err, ErrDecrypt)
			// The footer signature.
			footer := []byte("file metadata")
			sig, _ := fe.AppendFooterSignature(nil, nil, footer)
			require.Len(t, sig, NonceSize+TagSize)
			aad, err := AppendModuleAAD(nil, fd.FileAAD(), Footer, 0, 0, 0)
			require.NoError(t, err)
			_, err = c.VerifySignature(nil, footer, sig, aad)
			require.NoError(t, err)
			_, err = c.VerifySignature(nil, []byte("file metadatA"), sig, aad)
			require.ErrorIs(t, err, ErrDecrypt)
		})
	}
}

// TestFileEncryptorColumns: which columns are encrypted, with which key.
func TestFileEncryptorColumns(t *testing.T) {
	other := []byte("1234567890123456")
	fe, err := NewFileEncryptor(&WriteProperties{FooterKey: testKey, ColumnKeys: map[string]ColumnKey{
		"a": {Key: other, KeyMetadata: []byte("ka")}, "b": {}}})
	require.NoError(t, err)
	c, footer, md := fe.Column("a")
	require.NotNil(t, c)
	require.False(t, footer)
	require.Equal(t, []byte("ka"), md)
	c, footer, _ = fe.Column("b")
	require.Same(t, fe.FooterCipher(), c)
	require.True(t, footer)
	c, _, _ = fe.Column("c")
	require.Nil(t, c)
	fe, err = NewFileEncryptor(&WriteProperties{FooterKey: testKey})
	require.NoError(t, err)
	c, footer, _ = fe.Column("c")
	require.Same(t, fe.FooterCipher(), c)
	require.True(t, footer)
	for _, p := range []*WriteProperties{nil, {FooterKey: []byte("short")}, {FooterKey: testKey, AADPrefix: nil, DisableAADPrefixStorage: true},
		{FooterKey: testKey, ColumnKeys: map[string]ColumnKey{"a": {Key: []byte("short")}}}, {FooterKey: testKey, Algorithm: 7}} {
		_, err := NewFileEncryptor(p)
		require.True(t, errors.Is(err, ErrNoKey) || errors.Is(err, ErrInvalidKey) || errors.Is(err, ErrUnsupported), "%v", err)
	}
}

// TestEncryptAllocs: encrypting a GCM page and its header into buffers
// that have grown allocates nothing.
func TestEncryptAllocs(t *testing.T) {
	fe, err := NewFileEncryptor(&WriteProperties{FooterKey: testKey})
	require.NoError(t, err)
	var ce ChunkEncryptor
	require.NoError(t, ce.Reset(fe, fe.FooterCipher(), 0, 0))
	page := make([]byte, 4096)
	buf := make([]byte, 0, 2*ce.PageModuleSize(len(page)))
	n := testing.AllocsPerRun(100, func() {
		b, _ := ce.AppendPageHeader(buf[:0], page[:40], false, 7)
		b, _ = ce.AppendPage(b, page, false, 7)
		_ = b
	})
	require.Zero(t, n)
}

// BenchmarkEncryptPage encrypts a 1 MiB page module with each algorithm:
// the cost of encryption per byte of page (cpu-ns/op is the process's CPU
// time, steadier than wall time on a shared machine).
func BenchmarkEncryptPage(b *testing.B) {
	page := bytes.Repeat([]byte("0123456789abcdef"), 1<<16)
	for _, alg := range []Algorithm{AesGcmV1, AesGcmCtrV1} {
		b.Run(alg.String(), func(b *testing.B) {
			fe, err := NewFileEncryptor(&WriteProperties{Algorithm: alg, FooterKey: testKey})
			if err != nil {
				b.Fatal(err)
			}
			var ce ChunkEncryptor
			if err := ce.Reset(fe, fe.FooterCipher(), 0, 0); err != nil {
				b.Fatal(err)
			}
			buf, err := ce.AppendPage(nil, page, false, 0)
			if err != nil || len(buf) != ce.PageModuleSize(len(page)) {
				b.Fatalf("module of %d bytes: %v", len(buf), err)
			}
			b.SetBytes(int64(len(page)))
			b.ReportAllocs()
			cpu := benchdata.CPUTime()
			for b.Loop() {
				buf, _ = ce.AppendPage(buf[:0], page, false, 0)
			}
			b.ReportMetric(float64(benchdata.CPUTime()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}
