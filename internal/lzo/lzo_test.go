package lzo

import (
	"encoding/binary"
	"hash/adler32"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lzopBlock is one block of an lzop file: the LZO1X block and the length and
// Adler-32 checksum lzop recorded for its decompressed bytes.
type lzopBlock struct {
	compressed []byte
	size       int
	adler      uint32
}

// parseLzop splits an lzop file (as written by the lzop tool: the testdata
// files were made with `lzop -1` and `lzop -9`, i.e. LZO1X-1 and LZO1X-999)
// into its blocks. It handles only the header fields lzop 1.04 writes.
func parseLzop(t testing.TB, b []byte) []lzopBlock {
	t.Helper()
	require.Greater(t, len(b), 9+16)
	require.Equal(t, []byte("\x89LZO\x00\r\n\x1a\n"), b[:9])
	p := 9
	u16 := func() int { v := int(binary.BigEndian.Uint16(b[p:])); p += 2; return v }
	u32 := func() uint32 { v := binary.BigEndian.Uint32(b[p:]); p += 4; return v }
	version := u16()
	u16() // library version
	require.GreaterOrEqual(t, version, 0x0940)
	u16()  // version needed
	p += 2 // method, level
	flags := u32()
	require.Zero(t, flags&0x800, "filters unsupported")
	u32() // mode
	u32() // mtime low
	u32() // mtime high
	p += int(b[p]) + 1
	u32() // header checksum
	var blocks []lzopBlock
	for {
		dstLen := int(u32())
		if dstLen == 0 {
			require.Equal(t, len(b), p)
			return blocks
		}
		srcLen := int(u32())
		var blk lzopBlock
		blk.size = dstLen
		require.NotZero(t, flags&1, "want adler32 of decompressed data")
		blk.adler = u32()
		if flags&0x100 != 0 {
			u32()
		}
		if srcLen < dstLen {
			if flags&2 != 0 {
				u32()
			}
			if flags&0x200 != 0 {
				u32()
			}
			blk.compressed = b[p : p+srcLen]
		}
		p += srcLen
		blocks = append(blocks, blk)
	}
}

func TestLzopFiles(t *testing.T) {
	files, err := filepath.Glob("testdata/*.lzo")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	decoded := 0
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			b, err := os.ReadFile(f)
			require.NoError(t, err)
			for i, blk := range parseLzop(t, b) {
				if blk.compressed == nil {
					continue // stored block
				}
				// Exact capacity, with a prefix that must be preserved.
				dst := make([]byte, 3, 3+blk.size)
				copy(dst, "pfx")
				out, err := Decompress(dst, blk.compressed)
				require.NoError(t, err, "block %d", i)
				require.Len(t, out, 3+blk.size)
				assert.Equal(t, "pfx", string(out[:3]))
				assert.Equal(t, blk.adler, adler32.Checksum(out[3:]), "block %d checksum", i)
				decoded++

				// One byte short: ErrDstTooSmall, never a panic.
				_, err = Decompress(make([]byte, 0, blk.size-1), blk.compressed)
				require.ErrorIs(t, err, ErrDstTooSmall)

				// Every truncation fails cleanly.
				for cut := 0; cut < len(blk.compressed); cut += 1 + len(blk.compressed)/97 {
					_, err := Decompress(make([]byte, 0, blk.size), blk.compressed[:cut])
					require.Error(t, err, "cut at %d", cut)
				}
				// Trailing garbage is rejected.
				_, err = Decompress(make([]byte, 0, blk.size), append(append([]byte{}, blk.compressed...), 0))
				require.ErrorIs(t, err, ErrCorrupt)
			}
		})
	}
	require.Greater(t, decoded, 5)
}

func TestHandMade(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []byte
		want string
		err  error
	}{
		{"empty output", []byte{0x11, 0, 0}, "", nil},
		{"first literal run", []byte{17 + 5, 'h', 'e', 'l', 'l', 'o', 0x11, 0, 0}, "hello", nil},
		// "abcabc" literals, then a 12-byte M3 match at distance 6, then 14 literals.
		{"m3 overlap", []byte{0x03, 'a', 'b', 'c', 'a', 'b', 'c', 0x2a, 0x14, 0x00, 0x11, 0, 0}, "abcabcabcabcabcabc", nil},
		// 2 literals then an M2 match of length 3 at distance 1 (a run), 1 trailing literal.
		{"short literals m2", []byte{17 + 2, 'x', 'y', 0x40 | 1, 0, 'z', 0x11, 0, 0}, "xyyyyz", nil},
		{"empty input", nil, "", ErrCorrupt},
		{"no end marker", []byte{17 + 2, 'x', 'y'}, "", ErrCorrupt},
		{"distance before start", []byte{17 + 2, 'x', 'y', 0x40, 0xff, 0x11, 0, 0}, "", ErrCorrupt},
		{"literal past input", []byte{17 + 9, 'x', 'y'}, "", ErrCorrupt},
		{"zero length run forever", []byte{0, 0, 0, 0}, "", ErrCorrupt},
		{"bytes after end", []byte{0x11, 0, 0, 1}, "", ErrCorrupt},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Decompress(make([]byte, 0, 64), tc.in)
			if tc.err != nil {
				require.ErrorIs(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(out))
		})
	}
}

func TestNilDst(t *testing.T) {
	_, err := Decompress(nil, []byte{17 + 1, 'a', 0x11, 0, 0})
	require.ErrorIs(t, err, ErrDstTooSmall)
	out, err := Decompress(nil, []byte{0x11, 0, 0})
	require.NoError(t, err)
	require.Empty(t, out)
}

func TestZeroAllocs(t *testing.T) {
	b, err := os.ReadFile("testdata/strings-9.lzo")
	require.NoError(t, err)
	blk := parseLzop(t, b)[0]
	dst := make([]byte, 0, blk.size)
	allocs := testing.AllocsPerRun(20, func() {
		if _, err := Decompress(dst, blk.compressed); err != nil {
			t.Fatal(err)
		}
	})
	require.Zero(t, allocs)
}

func BenchmarkDecompress(b *testing.B) {
	raw, err := os.ReadFile("testdata/strings-9.lzo")
	require.NoError(b, err)
	blk := parseLzop(b, raw)[0]
	dst := make([]byte, 0, blk.size)
	out, err := Decompress(dst, blk.compressed)
	require.NoError(b, err)
	require.Equal(b, blk.adler, adler32.Checksum(out))
	b.SetBytes(int64(blk.size))
	b.ReportAllocs()
	for b.Loop() {
		_, _ = Decompress(dst, blk.compressed)
	}
}
