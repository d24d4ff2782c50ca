package writer_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/writer"
)

// genSchema has incompressible columns (rnd, x, s), compressible ones (id,
// cat, a dictionary of 64 strings with nulls) and a list (tags).
const genSchema = `message m {
	required int64 id;
	required int64 rnd;
	required double x;
	required binary s;
	optional binary cat (STRING);
	optional group tags (LIST) { repeated group list { required int32 element; } }
}`

// gen generates batches of genSchema's columns, reusing its buffers.
type gen struct {
	r    *rand.Rand
	next int64
	vals [6]column.Values
	def  [6][]int16
	rep  [6][]int16
}

func newGen(seed uint64) *gen {
	g := &gen{r: rand.New(rand.NewPCG(seed, 1))}
	types := []format.Type{format.Int64, format.Int64, format.Double, format.ByteArray, format.ByteArray, format.Int32}
	for i, t := range types {
		g.vals[i].Type = t
	}
	return g
}

// batch fills the batches of rows rows; bytes returns their PLAIN size.
func (g *gen) batch(rows int) (bytes int64) {
	for i := range g.vals {
		v := &g.vals[i]
		v.Int64s, v.Doubles, v.Int32s, v.Bytes = v.Int64s[:0], v.Doubles[:0], v.Int32s[:0], v.Bytes[:0]
		v.Offsets = append(v.Offsets[:0], 0)
		g.def[i], g.rep[i] = g.def[i][:0], g.rep[i][:0]
	}
	for range rows {
		g.vals[0].Int64s = append(g.vals[0].Int64s, g.next)
		g.next++
		g.vals[1].Int64s = append(g.vals[1].Int64s, int64(g.r.Uint64()))
		g.vals[2].Doubles = append(g.vals[2].Doubles, g.r.Float64())
		s := &g.vals[3]
		for range 3 {
			s.Bytes = binary.LittleEndian.AppendUint64(s.Bytes, g.r.Uint64())
		}
		s.Offsets = append(s.Offsets, int32(len(s.Bytes)))
		c := &g.vals[4]
		if k := g.r.IntN(64); k < 6 {
			g.def[4] = append(g.def[4], 0)
		} else {
			g.def[4] = append(g.def[4], 1)
			c.Bytes = append(c.Bytes, "category-"...)
			c.Bytes = append(c.Bytes, byte('A'+k))
			c.Offsets = append(c.Offsets, int32(len(c.Bytes)))
		}
		n := g.r.IntN(4)
		if n == 0 {
			g.def[5], g.rep[5] = append(g.def[5], 1), append(g.rep[5], 0)
		}
		for k := range n {
			g.def[5], g.rep[5] = append(g.def[5], 2), append(g.rep[5], int16(min(k, 1)))
			g.vals[5].Int32s = append(g.vals[5].Int32s, int32(g.r.IntN(1000)))
		}
	}
	bytes = int64(rows) * (8 + 8 + 8 + 28)
	bytes += int64(len(g.vals[4].Bytes)+4*g.vals[4].Len()) + 2*int64(len(g.def[4]))
	bytes += 4*int64(len(g.vals[5].Int32s)) + 4*int64(len(g.def[5]))
	return bytes
}

// write writes the current batches, a batch of each column in turn.
func (g *gen) write(w *writer.Writer) error {
	for i := range g.vals {
		if err := w.Write(i, &g.vals[i], g.def[i], g.rep[i]); err != nil {
			return err
		}
	}
	return nil
}

func genWriter(t testing.TB, out *bytes.Buffer, opts ...writer.Option) *writer.Writer {
	s, err := format.ParseSchema(genSchema)
	require.NoError(t, err)
	w, err := writer.New(out, s, opts...)
	require.NoError(t, err)
	return w
}

// TestMaxMemoryShrinksRowGroups writes 8 MiB of rows under a 1 MiB
// budget: row groups are cut early, each under the budget, the same for
// any number of workers, and the rows read back.
func TestMaxMemoryShrinksRowGroups(t *testing.T) {
	const budget = 1 << 20
	var files [][]byte
	rows := 0
	for _, workers := range []int{1, 3} {
		var buf bytes.Buffer
		w := genWriter(t, &buf, writer.WithMaxMemory(budget), writer.WithPageSize(64<<10), writer.WithWorkers(workers))
		g := newGen(1)
		var written int64
		for rows = 0; written < 8<<20; rows += 1000 {
			written += g.batch(1000)
			require.NoError(t, g.write(w))
		}
		require.NoError(t, w.Close())
		files = append(files, buf.Bytes())
	}
	require.Equal(t, files[0], files[1], "different bytes with workers")
	f, err := column.Open(bytes.NewReader(files[0]), int64(len(files[0])))
	require.NoError(t, err)
	require.Greater(t, f.NumRowGroups(), 8)
	for i, rg := range f.MetaData().RowGroups {
		require.Less(t, *rg.TotalCompressedSize, int64(budget))
		// Not far below either: the budget less the page buffers (6
		// pages of 64 KiB) and one round of batches.
		if i < f.NumRowGroups()-1 {
			require.Greater(t, *rg.TotalCompressedSize, int64(budget/3))
		}
	}
	got, err := readFile(files[0])
	require.NoError(t, err)
	require.Equal(t, rows, got.numRows(), "rows read back")

	// Without a bound, one row group.
	var buf bytes.Buffer
	w := genWriter(t, &buf, writer.WithMaxMemory(0))
	g := newGen(1)
	for range 8 {
		g.batch(20_000)
		require.NoError(t, g.write(w))
	}
	require.NoError(t, w.Close())
	f, err = column.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	require.NoError(t, err)
	require.Equal(t, 1, f.NumRowGroups())
}

// TestMaxMemoryLargeRound: a round of batches larger than the budget
// cannot be cut into row groups: it is buffered whole, the Write succeeds,
// and the row group is flushed as soon as the round ends; a Writer of one
// column flushes before a batch that would pass the budget, then takes
// the batch whole as its own row group.
func TestMaxMemoryLargeRound(t *testing.T) {
	var buf bytes.Buffer
	w := genWriter(t, &buf, writer.WithMaxMemory(256<<10))
	g := newGen(2)
	g.batch(100)
	require.NoError(t, g.write(w))
	g.batch(20_000) // over 1 MiB a column
	require.NoError(t, g.write(w))
	g.batch(100)
	require.NoError(t, g.write(w))
	require.NoError(t, w.Close())
	f, err := column.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	require.NoError(t, err)
	var groups []int64
	for rg := range f.NumRowGroups() {
		groups = append(groups, f.MetaData().RowGroups[rg].NumRows)
	}
	require.Equal(t, []int64{20_100, 100}, groups, "rows per row group: flushed as the large round ended")

	s, err := format.ParseSchema(`message m { required int64 x; }`)
	require.NoError(t, err)
	buf.Reset()
	w, err = writer.New(&buf, s, writer.WithMaxMemory(100<<10), writer.WithPageSize(8<<10))
	require.NoError(t, err)
	var want []int64
	v := &column.Values{Type: format.Int64, Int64s: make([]int64, 2_000)} // 16 KB
	for i := range 20 {
		for k := range v.Int64s {
			v.Int64s[k] = rand.Int64()
		}
		want = append(want, v.Int64s...)
		require.NoError(t, w.Write(0, v, nil, nil), "batch %d", i)
	}
	big := &column.Values{Type: format.Int64, Int64s: make([]int64, 20_000)} // 160 KB
	for k := range big.Int64s {
		big.Int64s[k] = rand.Int64()
	}
	want = append(want, big.Int64s...)
	require.NoError(t, w.Write(0, big, nil, nil))
	require.NoError(t, w.Close())
	f, err = column.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	require.NoError(t, err)
	last := f.MetaData().RowGroups[f.NumRowGroups()-1]
	require.Equal(t, int64(20_000), last.NumRows, "the large batch is its own row group")
	var got []int64
	for rg := range f.NumRowGroups() {
		r, err := f.Column(rg, 0)
		require.NoError(t, err)
		var p column.Page
		for {
			err := r.ReadPage(&p)
			if errors.Is(err, io.EOF) {
				break
			}
			require.NoError(t, err)
			got = append(got, p.Values.Int64s...)
		}
	}
	require.Equal(t, want, got)

	_, err = writer.New(&buf, s, writer.WithMaxMemory(-1))
	require.ErrorIs(t, err, writer.ErrOption)
	_, err = writer.New(&buf, s, writer.WithColumn("x", writer.WithMaxMemory(1)))
	require.ErrorIs(t, err, writer.ErrOption)
}
