package writer_test

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/unsafecast"
	"github.com/pqcodec/pqcodec/writer"
)

// sampleSchema returns the schema of sampleBatches' columns.
func sampleSchema(t testing.TB) *format.Schema {
	s, err := format.ParseSchema(`message m {
		required int64 id;
		optional binary name (STRING);
		optional group tags (LIST) { repeated group list { optional binary element (STRING); } }
	}`)
	require.NoError(t, err)
	return s
}

// sampleBatches builds n batches of rows rows of testSchema's first three
// columns (id, name, tags), each batch different.
func sampleBatches(n, rows int) [][3]struct {
	v        column.Values
	def, rep []int16
} {
	out := make([][3]struct {
		v        column.Values
		def, rep []int16
	}, n)
	for b := range out {
		id, name, tags := &out[b][0], &out[b][1], &out[b][2]
		id.v = column.Values{Type: format.Int64}
		name.v = column.Values{Type: format.ByteArray, Offsets: []int32{0}}
		tags.v = column.Values{Type: format.ByteArray, Offsets: []int32{0}}
		for r := range rows {
			x := b*rows + r
			id.v.Int64s = append(id.v.Int64s, int64(x))
			if x%5 == 0 {
				name.def = append(name.def, 0)
			} else {
				name.def = append(name.def, 1)
				name.v.Bytes = fmt.Appendf(name.v.Bytes, "name-%d", x%300)
				name.v.Offsets = append(name.v.Offsets, int32(len(name.v.Bytes)))
			}
			for k := range x % 4 {
				tags.rep = append(tags.rep, int16(min(k, 1)))
				tags.def = append(tags.def, 3)
				tags.v.Bytes = fmt.Appendf(tags.v.Bytes, "t%d", (x+k)%17)
				tags.v.Offsets = append(tags.v.Offsets, int32(len(tags.v.Bytes)))
			}
			if x%4 == 0 {
				tags.rep, tags.def = append(tags.rep, 0), append(tags.def, 1)
			}
		}
	}
	return out
}

// TestZeroAllocsPerPage writes a second row group like the first: once
// warm, cutting, encoding, compressing and buffering pages allocates
// nothing.
func TestZeroAllocsPerPage(t *testing.T) {
	s := sampleSchema(t)
	for k, opts := range [][]writer.Option{
		{writer.WithCodec(codecfactory.Snappy)},
		{writer.WithCodec(codecfactory.Zstd), writer.WithPageVersion(2)},
		{writer.WithDictionary(false), writer.WithEncoding(format.DeltaBinaryPacked), writer.WithColumn("name", writer.WithEncoding(format.DeltaByteArray)),
			writer.WithColumn("tags.list.element", writer.WithEncoding(format.DeltaLengthByteArray))},
	} {
		opts = append(opts, writer.WithPageSize(4<<10), writer.WithPageRows(500))
		w, err := writer.New(io.Discard, s, opts...)
		require.NoError(t, err)
		batches := sampleBatches(40, 250)
		writeGroup := func() {
			for i := range batches {
				b := &batches[i]
				for c := range 3 {
					require.NoError(t, w.Write(c, &b[c].v, b[c].def, b[c].rep))
				}
			}
		}
		writeGroup()
		require.NoError(t, w.Flush())
		writeGroup()
		require.NoError(t, w.Flush())
		if !unsafecast.Native {
			t.Skip("purego build: dictionary keys are copies of the values")
		}
		// A collection during the window would count the runtime's own
		// allocations; the pools of the codec factory survive it anyway.
		defer debug.SetGCPercent(debug.SetGCPercent(-1))
		var m0, m1 runtime.MemStats
		least := uint64(1 << 62)
		for range 5 {
			runtime.ReadMemStats(&m0)
			writeGroup()
			runtime.ReadMemStats(&m1)
			least = min(least, m1.Mallocs-m0.Mallocs)
			require.NoError(t, w.Flush()) // the row group's footer metadata allocates
		}
		require.NoError(t, w.Close())
		// A row group of 10,000 rows in pages of at most 500 rows is at
		// least 20 pages per column. The least of 5 row groups is taken:
		// the runtime allocates now and then on its own, and the Go map of
		// a fixed-width dictionary may re-split its table after clear (1
		// allocation in 1,000 row groups measured).
		require.Zero(t, least, "allocations writing a warm row group of 60+ pages, options %d", k)
	}
}
