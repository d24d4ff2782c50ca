package codecfactory

import (
	"encoding/binary"
	"os"
	"testing"

	"github.com/pierrec/lz4/v4"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// lz4Piece appends the Hadoop piece (length prefix and LZ4 block) of src.
func lz4Piece(t *testing.T, dst, src []byte) []byte {
	t.Helper()
	block := make([]byte, lz4.CompressBlockBound(len(src)))
	k, err := lz4.CompressBlock(src, block, nil)
	require.NoError(t, err)
	if len(src) == 0 {
		block, k = []byte{0}, 1
	}
	dst = binary.BigEndian.AppendUint32(dst, uint32(k))
	return append(dst, block[:k]...)
}

func be32(dst []byte, v uint32) []byte { return binary.BigEndian.AppendUint32(dst, v) }

// TestHadoopLz4Table decodes hand-built Hadoop LZ4 framing through the
// Factory: several pieces per chunk, several chunks per page, empty pages,
// and broken framing.
func TestHadoopLz4Table(t *testing.T) {
	a := genData(datasets[0], 70_000, 1)
	b := genData(datasets[5], 50_000, 2)
	ab := append(append([]byte{}, a...), b...)

	multiPiece := lz4Piece(t, lz4Piece(t, be32(nil, uint32(len(ab))), a), b)
	multiChunk := lz4Piece(t, be32(lz4Piece(t, be32(nil, uint32(len(a))), a), uint32(len(b))), b)
	emptyChunk := lz4Piece(t, be32(nil, 0), nil)
	single := lz4Piece(t, be32(nil, uint32(len(a))), a)

	for _, nf := range testFactories(t) {
		for _, tc := range []struct {
			name string
			src  []byte
			size int
			want []byte
			err  error
		}{
			{"multi-piece chunk", multiPiece, len(ab), ab, nil},
			{"multi-chunk page", multiChunk, len(ab), ab, nil},
			{"empty page", nil, 0, nil, nil},
			{"empty chunk", emptyChunk, 0, nil, nil},
			{"empty chunk then chunks", append(append([]byte{}, emptyChunk...), multiChunk...), len(ab), ab, nil},
			{"truncated header", []byte{0, 0}, 5, nil, ErrCorrupt},
			{"truncated piece header", append(be32(nil, 100), 0, 0), 100, nil, ErrCorrupt},
			{"piece length past input", single[:len(single)-1], len(a), nil, ErrCorrupt},
			{"chunk claiming more than the page", single, len(a) - 1, nil, ErrSizeMismatch},
			{"page longer than its chunks", single, len(a) + 1, nil, ErrSizeMismatch},
			{"chunk length past the page in a later chunk", multiChunk, len(a) + 10, nil, ErrSizeMismatch},
		} {
			out, err := nf.f.Decompress(Lz4, nil, tc.src, tc.size)
			if tc.err != nil {
				require.ErrorIs(t, err, tc.err, "%s: %s", nf.name, tc.name)
				continue
			}
			require.NoError(t, err, "%s: %s", nf.name, tc.name)
			require.Equal(t, len(tc.want), len(out), tc.name)
			require.Equal(t, tc.want, out[:len(tc.want)], tc.name)
		}
	}
}

// TestHadoopLz4Chunks checks what the encoder writes: chunks within
// Hadoop's buffer, one piece each.
func TestHadoopLz4Chunks(t *testing.T) {
	f, err := New()
	require.NoError(t, err)
	src := genData(datasets[2], 1<<20, 7) // incompressible: the worst case
	comp, err := f.Compress(Lz4, nil, src)
	require.NoError(t, err)
	chunks := 0
	for p := 0; p < len(comp); chunks++ {
		n := int(binary.BigEndian.Uint32(comp[p:]))
		c := int(binary.BigEndian.Uint32(comp[p+4:]))
		require.LessOrEqual(t, n, 256<<10)
		require.LessOrEqual(t, c, 256<<10, "compressed piece exceeds Hadoop's buffer")
		p += 8 + c
	}
	least := (len(src) + lz4ChunkSize - 1) / lz4ChunkSize
	require.Contains(t, []int{least, least + 1}, chunks) // see TestHadoopLz4Layout
}

// TestHadoopLz4Layout checks the chunk layout of pages larger than a chunk:
// a full chunk last, at most half a chunk before it, so that a reader that
// stops when the input left is not larger than the last frame read
// (arrow-rs) still reads every frame of evenly compressible data.
func TestHadoopLz4Layout(t *testing.T) {
	f, err := New()
	require.NoError(t, err)
	for _, n := range []int{lz4ChunkSize + 1, lz4ChunkSize + lz4ChunkSize/2, lz4ChunkSize + lz4ChunkSize/2 + 1, 400_000, 2 * lz4ChunkSize, 1 << 20, 3<<20 + 5} {
		src := genData(datasets[1], n, 3)
		comp, err := f.Compress(Lz4, nil, src)
		require.NoError(t, err)
		var sizes, frames []int
		for p := 0; p < len(comp); {
			sizes = append(sizes, int(binary.BigEndian.Uint32(comp[p:])))
			c := int(binary.BigEndian.Uint32(comp[p+4:]))
			frames = append(frames, c)
			p += 8 + c
		}
		k := len(sizes)
		require.GreaterOrEqual(t, k, 2, "n=%d", n)
		require.Equal(t, lz4ChunkSize, sizes[k-1], "n=%d: %v", n, sizes)
		require.LessOrEqual(t, sizes[k-2], lz4ChunkSize/2, "n=%d: %v", n, sizes)
		// The arrow-rs loop reads on while the input left exceeds the frame.
		left := len(comp)
		for i, c := range frames[:k-1] {
			left -= 8 + c
			require.Greater(t, left, c, "n=%d: frame %d of %v", n, i, frames)
		}
		out, err := f.Decompress(Lz4, nil, comp, n)
		require.NoError(t, err)
		require.Equal(t, src, out)
	}
}

// TestHadoopLz4CorpusChunks confirms that hadoop_lz4_compressed_larger.parquet
// exercises a multi-chunk page.
func TestHadoopLz4CorpusChunks(t *testing.T) {
	path := testcorpus.Data(t, "hadoop_lz4_compressed_larger.parquet")
	fh, err := os.Open(path)
	require.NoError(t, err)
	defer fh.Close()
	st, err := fh.Stat()
	require.NoError(t, err)
	md, err := format.ReadFooter(fh, st.Size())
	require.NoError(t, err)
	cc := &md.RowGroups[0].Columns[0]
	rng, err := md.ColumnChunkRange(cc, st.Size())
	require.NoError(t, err)
	chunk, err := format.ReadColumnChunk(nil, fh, rng)
	require.NoError(t, err)
	w := format.NewPageWalker(chunk, rng)
	require.True(t, w.Next())
	body, size := w.Body(), int(w.Header().UncompressedPageSize)
	require.Equal(t, 400_000, size)
	chunks := 0
	for p := 0; p < len(body); chunks++ {
		n := int(binary.BigEndian.Uint32(body[p:]))
		p += 4
		for got := 0; got < n; {
			c := int(binary.BigEndian.Uint32(body[p:]))
			k, err := lz4.UncompressBlock(body[p+4:p+4+c], make([]byte, n-got))
			require.NoError(t, err)
			got += k
			p += 4 + c
		}
	}
	require.Greater(t, chunks, 1)
	f, err := New()
	require.NoError(t, err)
	out, err := f.Decompress(Lz4, nil, body, size)
	require.NoError(t, err)
	require.Len(t, out, size)
}
