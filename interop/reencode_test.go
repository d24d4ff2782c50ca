package interop_test

// A file without page index and bloom filters, re-encoded by package
// reencode with both added: arrow-go reads the page index (a page header at
// every location, one null_pages entry per page) and finds every value of
// the column in its bloom filter.

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/reencode"
	"github.com/pqcodec/pqcodec/writer"
)

func TestReencodeArrowGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	var src []byte
	for i := range 3 {
		// Inputs of mgInput have a page index and a bloom filter on id:
		// take one written without either.
		b := mgInput(t, rng, int64(i*1000), 900)
		var out bytes.Buffer
		_, err := reencode.Rewrite(context.Background(), &out, bytes.NewReader(b), int64(len(b)),
			reencode.WithAll(writer.WithPageIndex(false), writer.WithBloomFilter(0, 0)))
		require.NoError(t, err)
		src = out.Bytes()
	}
	m, err := format.ReadFooter(bytes.NewReader(src), int64(len(src)))
	require.NoError(t, err)
	for _, rg := range m.RowGroups {
		for _, c := range rg.Columns {
			require.Nil(t, c.OffsetIndexOffset)
			require.Nil(t, c.MetaData.BloomFilterOffset)
		}
	}
	want := mgArrowRows(t, src)
	for _, opts := range [][]reencode.Option{
		{reencode.WithAll(writer.WithPageIndex(true), writer.WithPageSize(512)), reencode.WithBloomFilter("id", 0.01)},
		{reencode.WithBloomFilter("id", 0.01), reencode.WithColumn("name", writer.WithPageIndex(true))},
		{reencode.WithRowGroupSize(2048), reencode.WithAll(writer.WithPageIndex(true)), reencode.WithBloomFilter("id", 0.05)},
	} {
		var out bytes.Buffer
		_, err := reencode.Rewrite(context.Background(), &out, bytes.NewReader(src), int64(len(src)), opts...)
		require.NoError(t, err)
		data := out.Bytes()
		require.Equal(t, want, mgArrowRows(t, data))
		r, err := file.NewParquetReader(bytes.NewReader(data))
		require.NoError(t, err)
		pir := r.GetPageIndexReader()
		var pages, ids int
		for g := range r.NumRowGroups() {
			rgr := r.RowGroup(g)
			arg, err := pir.RowGroup(g)
			require.NoError(t, err)
			require.NotNil(t, arg)
			for c := range rgr.NumColumns() {
				oi, err := arg.GetOffsetIndex(c)
				require.NoError(t, err)
				if oi == nil {
					require.NotEqual(t, 1, c, "name has no offset index")
					continue
				}
				ci, err := arg.GetColumnIndex(c)
				require.NoError(t, err)
				require.NotNil(t, ci)
				require.Len(t, ci.GetNullPages(), len(oi.GetPageLocations()))
				for _, l := range oi.GetPageLocations() {
					var h format.PageHeader
					n, err := format.DecodePageHeader(data[l.Offset:], &h)
					require.NoError(t, err)
					require.Equal(t, int32(n)+h.CompressedPageSize, l.CompressedPageSize)
					pages++
				}
			}
			brg, err := r.GetBloomFilterReader().RowGroup(g)
			require.NoError(t, err)
			bf, err := brg.GetColumnBloomFilter(0)
			require.NoError(t, err)
			require.NotNil(t, bf)
			col, err := rgr.Column(0)
			require.NoError(t, err)
			vals := make([]int64, rgr.NumRows())
			_, n, err := col.(*file.Int64ColumnChunkReader).ReadBatch(rgr.NumRows(), vals, nil, nil)
			require.NoError(t, err)
			for _, v := range vals[:n] {
				require.True(t, bf.CheckHash(metadata.GetHash(bf.Hasher(), v)), "id %d", v)
				ids++
			}
		}
		r.Close()
		require.Equal(t, len(want), ids)
		require.NotZero(t, pages)
		t.Log(fmt.Sprintf("%d row groups, %d pages in offset indexes, %d ids in bloom filters", r.NumRowGroups(), pages, ids))
	}
}
