//go:build cgo && !nolzo

package lzo

import (
	"bytes"
	"encoding/binary"
	"hash/adler32"
	"io"
	"os/exec"
	"testing"

	cyberdelia "github.com/cyberdelia/lzo"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/native/internal/nativetest"
)

// lzop file format flags (lzop's conf.h) that change the framing.
const (
	flagAdler32D = 0x0001
	flagAdler32C = 0x0002
	flagExtra    = 0x0040
	flagFilter   = 0x0800
	flagCRC32D   = 0x0100
	flagCRC32C   = 0x0200
)

var lzopMagic = []byte{0x89, 'L', 'Z', 'O', 0x00, 0x0d, 0x0a, 0x1a, 0x0a}

type lzopBlock struct {
	size int    // uncompressed size
	data []byte // LZO1X data, or the raw bytes when len(data) == size
}

// lzopBlocks walks the framing of an lzop stream (as written by lzop and by
// github.com/cyberdelia/lzo) and returns its blocks, without decompressing.
func lzopBlocks(t *testing.T, s []byte) []lzopBlock {
	t.Helper()
	take := func(n int) []byte {
		require.GreaterOrEqual(t, len(s), n, "truncated lzop stream")
		b := s[:n]
		s = s[n:]
		return b
	}
	u16 := func() int { return int(binary.BigEndian.Uint16(take(2))) }
	u32 := func() int { return int(binary.BigEndian.Uint32(take(4))) }
	require.Equal(t, lzopMagic, take(len(lzopMagic)))
	version := u16()
	u16() // library version
	if version >= 0x0940 {
		u16() // version needed to extract
	}
	take(1) // method
	if version >= 0x0940 {
		take(1) // level
	}
	flags := u32()
	if flags&flagFilter != 0 {
		u32()
	}
	u32() // mode
	u32() // mtime
	if version >= 0x0940 {
		u32() // mtime high
	}
	take(int(take(1)[0])) // name
	u32()                 // header checksum
	if flags&flagExtra != 0 {
		take(u32())
		u32()
	}
	var blocks []lzopBlock
	for {
		dstLen := u32()
		if dstLen == 0 {
			require.Empty(t, s, "bytes after the end of the lzop stream")
			return blocks
		}
		srcLen := u32()
		for _, f := range []int{flagAdler32D, flagCRC32D} {
			if flags&f != 0 {
				u32()
			}
		}
		for _, f := range []int{flagAdler32C, flagCRC32C} {
			if flags&f != 0 && srcLen < dstLen {
				u32()
			}
		}
		blocks = append(blocks, lzopBlock{size: dstLen, data: take(srcLen)})
	}
}

// lzopStream wraps blocks compressed with method (1 = LZO1X-1,
// 3 = LZO1X-999) in an lzop stream without checksums.
func lzopStream(method byte, blocks []lzopBlock) []byte {
	hdr := binary.BigEndian.AppendUint16(nil, 0x1030) // lzop version
	hdr = binary.BigEndian.AppendUint16(hdr, 0x20a0)  // liblzo2 version
	hdr = binary.BigEndian.AppendUint16(hdr, 0x0940)  // version needed
	hdr = append(hdr, method, 5)
	hdr = binary.BigEndian.AppendUint32(hdr, 0)        // flags
	hdr = binary.BigEndian.AppendUint32(hdr, 0o100644) // mode
	hdr = binary.BigEndian.AppendUint32(hdr, 0)        // mtime
	hdr = binary.BigEndian.AppendUint32(hdr, 0)        // mtime high
	hdr = append(hdr, 0)                               // no name
	out := append(bytes.Clone(lzopMagic), hdr...)
	out = binary.BigEndian.AppendUint32(out, adler32.Checksum(hdr))
	for _, b := range blocks {
		out = binary.BigEndian.AppendUint32(out, uint32(b.size))
		out = binary.BigEndian.AppendUint32(out, uint32(len(b.data)))
		out = append(out, b.data...)
	}
	return binary.BigEndian.AppendUint32(out, 0)
}

// decodeBlocks decompresses lzop blocks with our Decompressor, each into a
// dst of exactly its declared size.
func decodeBlocks(t *testing.T, dec *Decompressor, blocks []lzopBlock) []byte {
	var out []byte
	for _, b := range blocks {
		if len(b.data) == b.size {
			out = append(out, b.data...)
			continue
		}
		got, err := dec.Decompress(make([]byte, 0, b.size), b.data)
		require.NoError(t, err)
		require.Len(t, got, b.size)
		out = append(out, got...)
	}
	return out
}

// ourBlocks compresses src in blockSize pieces, storing pieces that do not
// shrink, as lzop does.
func ourBlocks(t *testing.T, c *Compressor, src []byte, blockSize int) []lzopBlock {
	var blocks []lzopBlock
	for len(src) > 0 {
		piece := src[:min(blockSize, len(src))]
		src = src[len(piece):]
		z, err := c.Compress(nil, piece)
		require.NoError(t, err)
		if len(z) >= len(piece) {
			z = piece
		}
		blocks = append(blocks, lzopBlock{size: len(piece), data: z})
	}
	return blocks
}

// TestOracleCyberdelia cross-decodes with github.com/cyberdelia/lzo: its
// lzop streams are unwrapped and their blocks decoded by us, and our blocks
// are wrapped in lzop framing and read back by its Reader.
func TestOracleCyberdelia(t *testing.T) {
	dec, err := NewDecompressor()
	require.NoError(t, err)
	defer dec.Close()
	for _, lv := range []struct {
		ours, theirs int
		method       byte
	}{{Level1, cyberdelia.BestSpeed, 1}, {Level999, cyberdelia.BestCompression, 3}} {
		comp, err := NewCompressor(lv.ours)
		require.NoError(t, err)
		for _, kind := range nativetest.Kinds {
			for _, n := range nativetest.OracleSizes() {
				if lv.ours == Level999 && n > 1<<20 {
					continue
				}
				src := nativetest.Gen(kind, n, 51)

				var buf bytes.Buffer
				w, err := cyberdelia.NewWriterLevel(&buf, lv.theirs)
				require.NoError(t, err)
				for p := src; len(p) > 0; p = p[min(len(p), 256<<10):] {
					_, err = w.Write(p[:min(len(p), 256<<10)])
					require.NoError(t, err)
				}
				if n == 0 { // cyberdelia writes no header for no data
					_, err = w.Write([]byte{})
					require.NoError(t, err)
				} else {
					require.NoError(t, w.Close())
				}
				got := decodeBlocks(t, dec, lzopBlocks(t, buf.Bytes()))
				require.True(t, bytes.Equal(src, got), "ours decoding cyberdelia %d, %s %d", lv.theirs, kind, n)

				stream := lzopStream(lv.method, ourBlocks(t, comp, src, 1<<20))
				r, err := cyberdelia.NewReader(bytes.NewReader(stream))
				require.NoError(t, err)
				got, err = io.ReadAll(r)
				require.NoError(t, err)
				require.True(t, bytes.Equal(src, got), "cyberdelia decoding ours %d, %s %d", lv.ours, kind, n)
			}
		}
		require.NoError(t, comp.Close())
	}
}

// TestOracleLzop cross-decodes with the lzop command.
func TestOracleLzop(t *testing.T) {
	lzop, err := exec.LookPath("lzop")
	if err != nil {
		t.Skip("lzop not installed")
	}
	run := func(in []byte, args ...string) []byte {
		cmd := exec.Command(lzop, args...)
		cmd.Stdin = bytes.NewReader(in)
		out, err := cmd.Output()
		require.NoError(t, err, "lzop %v", args)
		return out
	}
	dec, err := NewDecompressor()
	require.NoError(t, err)
	defer dec.Close()
	for _, lv := range []struct {
		ours   int
		flag   string
		method byte
	}{{Level1, "-3", 1}, {Level999, "-9", 3}} {
		comp, err := NewCompressor(lv.ours)
		require.NoError(t, err)
		for _, kind := range nativetest.Kinds {
			for _, n := range []int{1, 31, 64 << 10, 1 << 20} {
				src := nativetest.Gen(kind, n, 61)
				got := decodeBlocks(t, dec, lzopBlocks(t, run(src, lv.flag, "-c")))
				require.True(t, bytes.Equal(src, got), "ours decoding lzop %s, %s %d", lv.flag, kind, n)

				got = run(lzopStream(lv.method, ourBlocks(t, comp, src, 256<<10)), "-dc")
				require.True(t, bytes.Equal(src, got), "lzop decoding ours %d, %s %d", lv.ours, kind, n)
			}
		}
		require.NoError(t, comp.Close())
	}
}
