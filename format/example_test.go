package format_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"log"

	"github.com/pqcodec/pqcodec/format"
)

func ptr[T any](v T) *T { return &v }

// buildFile writes a one-column file: PAR1, a dictionary page and a data
// page (bodies are placeholders), the footer, its length and PAR1.
func buildFile() []byte {
	file := []byte("PAR1")
	dictOffset := int64(len(file))
	file = format.AppendPageHeader(file, &format.PageHeader{
		Type: format.DictionaryPage, UncompressedPageSize: 3, CompressedPageSize: 3,
		HasDictionaryPageHeader: true,
		DictionaryPageHeader:    format.DictionaryPageHeader{NumValues: 1, Encoding: format.Plain},
	})
	file = append(file, "abc"...)
	dataOffset := int64(len(file))
	file = format.AppendPageHeader(file, &format.PageHeader{
		Type: format.DataPage, UncompressedPageSize: 2, CompressedPageSize: 2,
		HasDataPageHeader: true,
		DataPageHeader: format.DataPageHeader{NumValues: 5, Encoding: format.RLEDictionary,
			DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE},
	})
	file = append(file, 0, 0)
	md := &format.FileMetaData{
		Version: 1,
		NumRows: 5,
		Schema: []format.SchemaElement{
			{Name: "schema", NumChildren: ptr(int32(1))},
			{Name: "name", Type: ptr(format.ByteArray), RepetitionType: ptr(format.Optional),
				LogicalType: &format.LogicalType{Kind: format.LogicalString}},
		},
		RowGroups: []format.RowGroup{{NumRows: 5, Columns: []format.ColumnChunk{{
			MetaData: &format.ColumnMetaData{
				Type: format.ByteArray, Codec: format.Uncompressed, NumValues: 5,
				PathInSchema: []string{"name"}, Encodings: []format.Encoding{format.Plain, format.RLEDictionary},
				DataPageOffset: dataOffset, DictionaryPageOffset: &dictOffset,
				TotalCompressedSize: int64(len(file)) - dictOffset,
			},
		}}}},
	}
	footerStart := len(file)
	file = format.AppendFileMetaData(file, md)
	file = binary.LittleEndian.AppendUint32(file, uint32(len(file)-footerStart))
	return append(file, "PAR1"...)
}

func Example() {
	file := buildFile()
	r, size := bytes.NewReader(file), int64(len(file))

	md, err := format.ReadFooter(r, size)
	if err != nil {
		log.Fatal(err)
	}
	schema, err := format.NewSchema(md.Schema)
	if err != nil {
		log.Fatal(err)
	}
	for _, leaf := range schema.Leaves() {
		fmt.Printf("column %d %v %v: %v, max def %d, max rep %d\n", leaf.ColumnIndex, leaf.Path(),
			*leaf.Element.Type, leaf.Element.LogicalType, leaf.MaxDefinitionLevel, leaf.MaxRepetitionLevel)
	}
	for _, rg := range md.RowGroups {
		for i := range rg.Columns {
			rng, err := md.ColumnChunkRange(&rg.Columns[i], size)
			if err != nil {
				log.Fatal(err)
			}
			chunk, err := format.ReadColumnChunk(nil, r, rng)
			if err != nil {
				log.Fatal(err)
			}
			w := format.NewPageWalker(chunk, rng)
			for w.Next() {
				fmt.Printf("page at %d: %v, %d body bytes\n", w.Offset(), w.Header().Type, len(w.Body()))
			}
			if err := w.Err(); err != nil {
				log.Fatal(err)
			}
		}
	}
	// Output:
	// column 0 [name] BYTE_ARRAY: STRING, max def 1, max rep 0
	// page at 4: DICTIONARY_PAGE, 3 body bytes
	// page at 20: DATA_PAGE, 2 body bytes
}
