package codecfactory

import (
	"encoding/binary"
	"hash/adler32"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// lzopPage turns an lzop file from internal/lzo's testdata (LZO1X blocks
// made by the lzop tool) into a Hadoop-framed LZO page, one chunk per block,
// so LZO decompression is tested without an LZO compressor. It returns the
// page, its uncompressed size and the Adler-32 of each chunk's content.
func lzopPage(t testing.TB, name string) (page []byte, size int, sums []uint32) {
	t.Helper()
	b, err := os.ReadFile("../internal/lzo/testdata/" + name)
	require.NoError(t, err)
	require.Equal(t, "\x89LZO\x00\r\n\x1a\n", string(b[:9]))
	p := 9 + 6 + 2 // versions, method, level
	flags := binary.BigEndian.Uint32(b[p:])
	require.Equal(t, uint32(1), flags&0xF03, "want adler32 of decompressed data only")
	p += 4 + 12 // flags, mode, mtime
	p += int(b[p]) + 1 + 4
	for {
		dlen := int(binary.BigEndian.Uint32(b[p:]))
		if dlen == 0 {
			return page, size, sums
		}
		clen := int(binary.BigEndian.Uint32(b[p+4:]))
		sums = append(sums, binary.BigEndian.Uint32(b[p+8:]))
		p += 12
		require.Less(t, clen, dlen, "stored lzop block")
		page = binary.BigEndian.AppendUint32(page, uint32(dlen))
		page = binary.BigEndian.AppendUint32(page, uint32(clen))
		page = append(page, b[p:p+clen]...)
		size += dlen
		p += clen
	}
}

// checkLzopContent verifies decompressed content against the chunk sums of
// a page from lzopPage.
func checkLzopContent(t testing.TB, page, out []byte, sums []uint32) {
	t.Helper()
	for i, p := 0, 0; p < len(page); i++ {
		dlen := int(binary.BigEndian.Uint32(page[p:]))
		clen := int(binary.BigEndian.Uint32(page[p+4:]))
		require.Equal(t, sums[i], adler32.Checksum(out[:dlen]), "chunk %d", i)
		out = out[dlen:]
		p += 8 + clen
	}
	require.Empty(t, out)
}

// lzoFixture returns an LZO page: src compressed by the default factory
// when it can, else the lzop-made fixture (src is then ignored).
func lzoFixture(t testing.TB, src []byte) []byte {
	t.Helper()
	f, err := New()
	require.NoError(t, err)
	if canCompress(f, Lzo) {
		comp, err := f.Compress(Lzo, nil, src)
		require.NoError(t, err)
		return comp
	}
	t.Skip("no LZO compressor in this build; covered by TestLzopPages")
	return nil
}

func TestLzopPages(t *testing.T) {
	for _, nf := range testFactories(t) {
		for _, name := range []string{"deltas-1.lzo", "deltas-9.lzo", "strings-1.lzo", "strings-9.lzo", "mixed-1.lzo", "tiny-9.lzo"} {
			page, size, sums := lzopPage(t, name)
			out, err := nf.f.Decompress(Lzo, nil, page, size)
			require.NoError(t, err, "%s %s", nf.name, name)
			checkLzopContent(t, page, out, sums)
			// Two copies in one page: a multi-chunk page.
			double := append(append([]byte{}, page...), page...)
			out, err = nf.f.Decompress(Lzo, nil, double, 2*size)
			require.NoError(t, err)
			checkLzopContent(t, double, out, append(sums, sums...))
			_, err = nf.f.Decompress(Lzo, nil, page, size+1)
			require.ErrorIs(t, err, ErrSizeMismatch)
			_, err = nf.f.Decompress(Lzo, nil, page, size-1)
			require.ErrorIs(t, err, ErrSizeMismatch)
			if !raceEnabled {
				dst := make([]byte, 0, size)
				allocs := testing.AllocsPerRun(10, func() {
					if _, err := nf.f.Decompress(Lzo, dst, page, size); err != nil {
						t.Fatal(err)
					}
				})
				require.Zero(t, allocs)
			}
		}
	}
}
