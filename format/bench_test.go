package format

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// BenchmarkDecodePageHeader decodes a typical v1 data page header with
// statistics (the first of samplePageHeaders). SetBytes is the header size.
func BenchmarkDecodePageHeader(b *testing.B) {
	want := samplePageHeaders()[0]
	buf := AppendPageHeader(nil, &want)
	var h PageHeader
	n, err := DecodePageHeader(buf, &h)
	require.NoError(b, err)
	require.Equal(b, len(buf), n)
	require.Equal(b, want, h)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodePageHeader(buf, &h); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAppendPageHeader(b *testing.B) {
	h := samplePageHeaders()[0]
	buf := AppendPageHeader(nil, &h)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		buf = AppendPageHeader(buf[:0], &h)
	}
}

// BenchmarkDecodeFileMetaData decodes the footer built by fullFileMetaData.
func BenchmarkDecodeFileMetaData(b *testing.B) {
	buf := AppendFileMetaData(nil, fullFileMetaData())
	md, err := DecodeFileMetaData(buf)
	require.NoError(b, err)
	require.Equal(b, fullFileMetaData(), md)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeFileMetaData(buf); err != nil {
			b.Fatal(err)
		}
	}
}
