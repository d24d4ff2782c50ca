package recompress_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"log"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/recompress"
)

// plainInt32File returns an uncompressed one-column Parquet file holding
// values as one PLAIN data page.
func plainInt32File(values []int32) []byte {
	var body []byte
	for _, v := range values {
		body = binary.LittleEndian.AppendUint32(body, uint32(v))
	}
	file := []byte("PAR1")
	file = format.AppendPageHeader(file, &format.PageHeader{
		Type: format.DataPage, UncompressedPageSize: int32(len(body)), CompressedPageSize: int32(len(body)),
		HasDataPageHeader: true,
		DataPageHeader: format.DataPageHeader{NumValues: int32(len(values)), Encoding: format.Plain,
			DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE},
	})
	file = append(file, body...)
	one, typ, req := int32(1), format.Int32, format.Required
	footer := format.AppendFileMetaData(nil, &format.FileMetaData{
		Version: 1, NumRows: int64(len(values)),
		Schema: []format.SchemaElement{{Name: "schema", NumChildren: &one}, {Name: "n", Type: &typ, RepetitionType: &req}},
		RowGroups: []format.RowGroup{{NumRows: int64(len(values)), TotalByteSize: int64(len(file) - 4),
			Columns: []format.ColumnChunk{{FileOffset: 4, MetaData: &format.ColumnMetaData{
				Type: format.Int32, Codec: format.Uncompressed, NumValues: int64(len(values)),
				PathInSchema: []string{"n"}, Encodings: []format.Encoding{format.Plain, format.RLE},
				DataPageOffset: 4, TotalCompressedSize: int64(len(file) - 4), TotalUncompressedSize: int64(len(file) - 4),
			}}}}},
	})
	file = append(file, footer...)
	file = binary.LittleEndian.AppendUint32(file, uint32(len(footer)))
	return append(file, "PAR1"...)
}

// Example recompresses an uncompressed file to ZSTD level 9, verifies the
// output page by page, and reads its values back.
func Example() {
	values := make([]int32, 10000)
	for i := range values {
		values[i] = int32(i % 100)
	}
	src := plainInt32File(values)

	var out bytes.Buffer
	res, err := recompress.Rewrite(&out, bytes.NewReader(src), int64(len(src)),
		recompress.WithCodec(recompress.Target{Codec: codecfactory.Zstd, Level: 9}))
	if err != nil {
		log.Fatal(err)
	}
	dst := out.Bytes()
	if err := recompress.Verify(bytes.NewReader(src), int64(len(src)), bytes.NewReader(dst), int64(len(dst)), nil); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d pages, %d page bytes in, less than 1/100 of them out: %v\n", res.Pages, res.PageBytesIn,
		res.PageBytesOut*100 < res.PageBytesIn)

	f, err := column.Open(bytes.NewReader(dst), int64(len(dst)))
	if err != nil {
		log.Fatal(err)
	}
	r, err := f.Column(0, 0)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("codec:", r.MetaData().Codec)
	var p column.Page
	n := 0
	for {
		err := r.ReadPage(&p)
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		n += p.Values.Len()
		fmt.Println("first values:", p.Values.Int32s[:5])
	}
	fmt.Println("values:", n)
	// Output:
	// 1 pages, 40023 page bytes in, less than 1/100 of them out: true
	// codec: ZSTD
	// first values: [0 1 2 3 4]
	// values: 10000
}
