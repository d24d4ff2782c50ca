package codecfactory

import (
	"bytes"
	stdgzip "compress/gzip"
	"encoding/binary"
	"io"
	"os"
	"os/exec"
	"testing"

	"github.com/andybalholm/brotli"
	kgzip "github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/s2"
	ksnappy "github.com/klauspost/compress/snappy"
	kzstd "github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
	"github.com/stretchr/testify/require"
)

// interopData is the content the interop tests exchange: every dataset,
// concatenated, at a size spanning several Hadoop chunks.
func interopData() []byte {
	var b []byte
	for i, d := range datasets {
		b = append(b, genData(d, 60_000, uint64(i))...)
	}
	return b
}

// TestInteropPeers exchanges pages both ways between the Factory (each mode)
// and the libraries other Go Parquet implementations use.
func TestInteropPeers(t *testing.T) {
	src := interopData()
	for _, nf := range testFactories(t) {
		f := nf.f
		decode := func(c Codec, comp []byte) {
			t.Helper()
			out, err := f.Decompress(c, nil, comp, len(src))
			require.NoError(t, err, "%s %v", nf.name, c)
			require.True(t, bytes.Equal(src, out), "%s %v", nf.name, c)
		}
		compress := func(c Codec) []byte {
			t.Helper()
			comp, err := f.Compress(c, nil, src)
			require.NoError(t, err)
			return comp
		}
		readAll := func(r io.Reader) []byte {
			t.Helper()
			b, err := io.ReadAll(r)
			require.NoError(t, err)
			return b
		}

		t.Run(nf.name+"/zstd", func(t *testing.T) {
			enc, err := kzstd.NewWriter(nil)
			require.NoError(t, err)
			decode(Zstd, enc.EncodeAll(src, nil))
			// Two frames in one page.
			half := len(src) / 2
			decode(Zstd, enc.EncodeAll(src[half:], enc.EncodeAll(src[:half], nil)))
			// A streaming frame, without a content size in its header.
			var stream bytes.Buffer
			zw, err := kzstd.NewWriter(&stream)
			require.NoError(t, err)
			_, err = zw.Write(src)
			require.NoError(t, err)
			require.NoError(t, zw.Close())
			_, known, err := zstdSize(stream.Bytes())
			require.NoError(t, err)
			require.False(t, known)
			decode(Zstd, stream.Bytes())
			_, err = f.Decompress(Zstd, nil, stream.Bytes(), len(src)+1)
			require.ErrorIs(t, err, ErrSizeMismatch)
			dec, err := kzstd.NewReader(nil)
			require.NoError(t, err)
			out, err := dec.DecodeAll(compress(Zstd), nil)
			require.NoError(t, err)
			require.Equal(t, src, out)
		})
		t.Run(nf.name+"/brotli", func(t *testing.T) {
			var buf bytes.Buffer
			w := brotli.NewWriterLevel(&buf, 5)
			_, err := w.Write(src)
			require.NoError(t, err)
			require.NoError(t, w.Close())
			decode(Brotli, buf.Bytes())
			require.Equal(t, src, readAll(brotli.NewReader(bytes.NewReader(compress(Brotli)))))
		})
		t.Run(nf.name+"/gzip", func(t *testing.T) {
			// Three members from two libraries in one page.
			var buf bytes.Buffer
			third := len(src) / 3
			w := stdgzip.NewWriter(&buf)
			_, err := w.Write(src[:third])
			require.NoError(t, err)
			require.NoError(t, w.Close())
			kw, err := kgzip.NewWriterLevel(&buf, 9)
			require.NoError(t, err)
			_, err = kw.Write(src[third : 2*third])
			require.NoError(t, err)
			require.NoError(t, kw.Close())
			w = stdgzip.NewWriter(&buf)
			_, err = w.Write(src[2*third:])
			require.NoError(t, err)
			require.NoError(t, w.Close())
			decode(Gzip, buf.Bytes())
			r, err := stdgzip.NewReader(bytes.NewReader(compress(Gzip)))
			require.NoError(t, err)
			require.Equal(t, src, readAll(r))
			// Our own pages concatenated are one multi-member page.
			a, err := f.Compress(Gzip, nil, src[:third])
			require.NoError(t, err)
			b, err := f.Compress(Gzip, a, src[third:])
			require.NoError(t, err)
			decode(Gzip, b)
		})
		t.Run(nf.name+"/snappy", func(t *testing.T) {
			decode(Snappy, ksnappy.Encode(nil, src))
			decode(Snappy, s2.EncodeSnappyBest(nil, src))
			out, err := ksnappy.Decode(nil, compress(Snappy))
			require.NoError(t, err)
			require.Equal(t, src, out)
			out, err = s2.Decode(nil, compress(Snappy))
			require.NoError(t, err)
			require.Equal(t, src, out)
		})
		t.Run(nf.name+"/lz4", func(t *testing.T) {
			// An LZ4 frame under the LZ4 codec (the fallback after Hadoop).
			var buf bytes.Buffer
			w := lz4.NewWriter(&buf)
			_, err := w.Write(src)
			require.NoError(t, err)
			require.NoError(t, w.Close())
			decode(Lz4, buf.Bytes())
			// A raw block under the LZ4 codec (the last fallback).
			raw := make([]byte, lz4.CompressBlockBound(len(src)))
			k, err := lz4.CompressBlockHC(src, raw, lz4.Level9, nil, nil)
			require.NoError(t, err)
			decode(Lz4, raw[:k])
			decode(Lz4Raw, raw[:k])
		})
	}
}

// lz4CLIFrame parses the LZ4 frame written by the lz4 tool and returns its
// single compressed block.
func lz4CLIFrame(t *testing.T, b []byte) []byte {
	t.Helper()
	require.Equal(t, lz4FrameMagic, b[:4])
	flg := b[4]
	p := 7 // magic, FLG, BD, HC
	if flg&0x08 != 0 {
		p += 8 // content size
	}
	if flg&0x01 != 0 {
		p += 4 // dictionary id
	}
	size := binary.LittleEndian.Uint32(b[p:])
	require.Zero(t, size&0x80000000, "stored block")
	p += 4
	block := b[p : p+int(size)]
	p += int(size)
	if flg&0x10 != 0 {
		p += 4
	}
	require.Zero(t, binary.LittleEndian.Uint32(b[p:]), "want one block")
	return block
}

// TestInteropLz4CLI exchanges raw LZ4 blocks with liblz4 through the lz4
// command-line tool: its frame's block decoded as LZ4_RAW, and our LZ4_RAW
// block wrapped in a frame header and decoded by the tool.
func TestInteropLz4CLI(t *testing.T) {
	lz4cli, err := exec.LookPath("lz4")
	if err != nil {
		t.Skip("lz4 tool not installed")
	}
	src := interopData()
	dir := t.TempDir()
	in := dir + "/in"
	require.NoError(t, os.WriteFile(in, src, 0o644))
	for _, level := range []string{"-1", "-9"} {
		frame, err := exec.Command(lz4cli, level, "-B7", "-BI", "-c", in).Output()
		require.NoError(t, err)
		block := lz4CLIFrame(t, frame)
		for _, nf := range testFactories(t) {
			out, err := nf.f.Decompress(Lz4Raw, nil, block, len(src))
			require.NoError(t, err)
			require.True(t, bytes.Equal(src, out))
		}
	}
	// The frame header (no content size, no checksums, 4 MiB independent
	// blocks) from pierrec/lz4; the header checksum covers only the header.
	var hdr bytes.Buffer
	w := lz4.NewWriter(&hdr)
	require.NoError(t, w.Apply(lz4.ChecksumOption(false), lz4.BlockSizeOption(lz4.Block4Mb)))
	_, err = w.Write([]byte{0})
	require.NoError(t, err)
	require.NoError(t, w.Close())
	for _, nf := range testFactories(t) {
		block, err := nf.f.Compress(Lz4Raw, nil, src)
		require.NoError(t, err)
		frame := append([]byte{}, hdr.Bytes()[:7]...)
		require.Equal(t, byte(0x60), frame[4]&0x7D, "unexpected frame flags")
		frame = binary.LittleEndian.AppendUint32(frame, uint32(len(block)))
		frame = append(frame, block...)
		frame = binary.LittleEndian.AppendUint32(frame, 0)
		framed := dir + "/ours.lz4"
		require.NoError(t, os.WriteFile(framed, frame, 0o644))
		out, err := exec.Command(lz4cli, "-d", "-c", framed).Output()
		require.NoError(t, err)
		require.True(t, bytes.Equal(src, out), "liblz4 decodes our block differently")
	}
}
