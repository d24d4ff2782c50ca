package encryption

import (
	"bytes"
	"testing"

	"github.com/pqcodec/pqcodec/internal/benchdata"
)

// BenchmarkPage decrypts a 1 MiB page module, as the page walk does, with
// each algorithm: the cost of decryption per byte of page.
func BenchmarkPage(b *testing.B) {
	nonce := []byte("nonce-nonce!")
	page := bytes.Repeat([]byte("0123456789abcdef"), 1<<16)
	for _, alg := range []Algorithm{AesGcmV1, AesGcmCtrV1} {
		b.Run(alg.String(), func(b *testing.B) {
			d, err := NewFileDecryptor(&Properties{FooterKey: testKey}, alg, nil, []byte("u"), false, nil)
			if err != nil {
				b.Fatal(err)
			}
			c, err := d.FooterCipher()
			if err != nil {
				b.Fatal(err)
			}
			var cd ChunkDecryptor
			if err := cd.Reset(d, c, 0, 0); err != nil {
				b.Fatal(err)
			}
			aad, _ := AppendModuleAAD(nil, d.FileAAD(), DataPage, 0, 0, 0)
			module := gcmModule(b, testKey, nonce, page, aad)
			if alg == AesGcmCtrV1 {
				module = ctrModule(b, testKey, nonce, page)
			}
			got, err := cd.Page(module, false, 0)
			if err != nil || !bytes.Equal(got, page) {
				b.Fatalf("wrong plaintext: %v", err)
			}
			b.SetBytes(int64(len(page)))
			b.ReportAllocs()
			cpu := benchdata.CPUTime()
			for b.Loop() {
				if _, err := cd.Page(module, false, 0); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(benchdata.CPUTime()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}
