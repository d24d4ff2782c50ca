package interop_test

// Files merged by package merge, read by arrow-go: the same rows as the
// inputs read by arrow-go, in order; arrow-go's page index reader finds
// every page its offset index names, and its bloom filter reader every id.

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/merge"
	"github.com/pqcodec/pqcodec/rows"
	"github.com/pqcodec/pqcodec/writer"
)

func mgInput(t *testing.T, rng *rand.Rand, first int64, n int) []byte {
	s, err := format.ParseSchema(`message m {
		required int64 id;
		optional binary name (STRING);
		optional group tags (LIST) { repeated group list { optional int32 element; } }
		optional double x;
	}`)
	require.NoError(t, err)
	codecs := []codecfactory.Codec{codecfactory.Zstd, codecfactory.Snappy, codecfactory.Uncompressed, codecfactory.Gzip}
	var buf bytes.Buffer
	w, err := rows.NewWriter(&buf, s, rows.WithWriterOptions(
		writer.WithCodec(codecs[rng.IntN(len(codecs))]),
		writer.WithPageVersion(1+rng.IntN(2)),
		writer.WithPageRows(1+rng.IntN(30)),
		writer.WithRowGroupRows(int64(1+rng.IntN(80))),
		writer.WithDictionary(rng.IntN(2) == 0),
		writer.WithColumn("id", writer.WithBloomFilter(1000, 0.01)),
	))
	require.NoError(t, err)
	for i := range n {
		tags := "null"
		if rng.IntN(3) > 0 {
			var b strings.Builder
			for k := range rng.IntN(4) {
				if k > 0 {
					b.WriteByte(',')
				}
				if rng.IntN(6) == 0 {
					b.WriteString("null")
				} else {
					fmt.Fprint(&b, rng.IntN(100))
				}
			}
			tags = "[" + b.String() + "]"
		}
		name := "null"
		if rng.IntN(4) > 0 {
			name = fmt.Sprintf(`"n%d"`, rng.IntN(40))
		}
		require.NoError(t, w.WriteJSON(fmt.Appendf(nil, `{"id": %d, "name": %s, "tags": %s, "x": %g}`, first+int64(i), name, tags, float64(rng.IntN(1000))/8)))
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// mgArrowRows reads file with pqarrow as JSON lines.
func mgArrowRows(t *testing.T, b []byte) []string {
	tbl, err := pqarrow.ReadTable(context.Background(), bytes.NewReader(b), parquet.NewReaderProperties(memory.DefaultAllocator),
		pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	require.NoError(t, err)
	defer tbl.Release()
	tr := array.NewTableReader(tbl, 1000)
	defer tr.Release()
	var out bytes.Buffer
	for tr.Next() {
		require.NoError(t, array.RecordToJSON(tr.RecordBatch(), &out))
	}
	s := strings.TrimSuffix(out.String(), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func TestMergeArrowGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	var inputs []merge.Input
	var want []string
	var id int64
	for i := range 120 {
		n := rng.IntN(150)
		b := mgInput(t, rng, id, n)
		id += int64(n)
		inputs = append(inputs, merge.Reader(fmt.Sprint(i), bytes.NewReader(b), int64(len(b))))
		want = append(want, mgArrowRows(t, b)...)
	}
	for _, min := range []int64{0, 3000, 1 << 30} {
		t.Run(fmt.Sprint(min), func(t *testing.T) {
			var out bytes.Buffer
			res, err := merge.Merge(&out, inputs, merge.WithMinRowGroupSize(min),
				merge.WithWriterOptions(writer.WithColumn("id", writer.WithBloomFilter(1000, 0.01))))
			require.NoError(t, err)
			require.NoError(t, merge.Verify(context.Background(), bytes.NewReader(out.Bytes()), int64(out.Len()), inputs, res))
			data := out.Bytes()
			require.Equal(t, want, mgArrowRows(t, data))

			r, err := file.NewParquetReader(bytes.NewReader(data))
			require.NoError(t, err)
			defer r.Close()
			pir := r.GetPageIndexReader()
			blooms := r.GetBloomFilterReader()
			var pages, ids int
			for g := range r.NumRowGroups() {
				rgr := r.RowGroup(g)
				arg, err := pir.RowGroup(g)
				require.NoError(t, err)
				require.NotNil(t, arg, "row group %d has no page index", g)
				for c := range rgr.NumColumns() {
					ci, err := arg.GetColumnIndex(c)
					require.NoError(t, err)
					require.NotNil(t, ci)
					oi, err := arg.GetOffsetIndex(c)
					require.NoError(t, err)
					require.NotNil(t, oi)
					locs := oi.GetPageLocations()
					require.Len(t, ci.GetNullPages(), len(locs))
					for p, l := range locs {
						var h format.PageHeader
						n, err := format.DecodePageHeader(data[l.Offset:], &h)
						require.NoError(t, err, "row group %d column %d page %d", g, c, p)
						require.Equal(t, int32(n)+h.CompressedPageSize, l.CompressedPageSize)
						require.Contains(t, []format.PageType{format.DataPage, format.DataPageV2}, h.Type)
						pages++
					}
				}
				// Every id of the row group is in its bloom filter.
				brg, err := blooms.RowGroup(g)
				require.NoError(t, err)
				bf, err := brg.GetColumnBloomFilter(0)
				require.NoError(t, err)
				require.NotNil(t, bf, "row group %d", g)
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
			require.Equal(t, int(id), ids)
			t.Logf("%d row groups (%d copied, %d combined in), %d pages checked", res.RowGroupsOut, res.RowGroupsCopied, res.RowGroupsCombined, pages)
		})
	}
}
