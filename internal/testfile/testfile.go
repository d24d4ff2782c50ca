// Package testfile builds small Parquet files byte by byte for tests: the
// shapes of real writers that the parquet-testing corpus lacks, such as
// files with zero row groups or pages whose headers disagree with their
// levels. It does not validate what it writes.
package testfile

import (
	"bytes"
	"encoding/binary"

	"github.com/pqcodec/pqcodec/format"
)

// Page returns the encoding of a page: its thrift header, then body. The
// header's compressed and uncompressed sizes are set to len(body) when they
// are 0.
func Page(h format.PageHeader, body []byte) []byte {
	if h.CompressedPageSize == 0 {
		h.CompressedPageSize = int32(len(body))
	}
	if h.UncompressedPageSize == 0 {
		h.UncompressedPageSize = int32(len(body))
	}
	return append(format.AppendPageHeader(nil, &h), body...)
}

// Chunk is a column chunk to write: its metadata (offsets and
// total_compressed_size are filled in unless Keep says otherwise) and its
// pages, each as made by [Page].
type Chunk struct {
	Meta  format.ColumnMetaData
	Pages [][]byte
	// Dict makes the first page the dictionary page: dictionary_page_offset
	// is its offset and data_page_offset that of the second page. Otherwise
	// data_page_offset is the first page's offset and
	// dictionary_page_offset is left as Meta has it.
	Dict bool
}

// File returns a Parquet file holding one row group of the given chunks,
// or none when chunks is nil: leading magic, pages, footer, footer length,
// trailing magic. patch, when not nil, may rewrite the encoded footer.
func File(schema []format.SchemaElement, numRows int64, chunks []Chunk, patch func([]byte) []byte) []byte {
	var b bytes.Buffer
	b.WriteString("PAR1")
	md := format.FileMetaData{Version: 1, Schema: schema, NumRows: numRows}
	if chunks != nil {
		rg := format.RowGroup{NumRows: numRows}
		for _, c := range chunks {
			m := c.Meta
			start := int64(b.Len())
			m.DataPageOffset = start
			for i, p := range c.Pages {
				if c.Dict && i == 0 {
					off := int64(b.Len())
					m.DictionaryPageOffset = &off
				}
				if c.Dict && i == 1 {
					m.DataPageOffset = int64(b.Len())
				}
				b.Write(p)
			}
			m.TotalCompressedSize = int64(b.Len()) - start
			m.TotalUncompressedSize = m.TotalCompressedSize
			rg.Columns = append(rg.Columns, format.ColumnChunk{FileOffset: start, MetaData: &m})
			rg.TotalByteSize += m.TotalCompressedSize
		}
		md.RowGroups = []format.RowGroup{rg}
	}
	footer := format.AppendFileMetaData(nil, &md)
	if patch != nil {
		footer = patch(footer)
	}
	b.Write(footer)
	b.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(footer))))
	b.WriteString("PAR1")
	return b.Bytes()
}

// EmptyListType0 rewrites the empty row_groups list of a footer written by
// [File] with nil chunks the way a JavaScript writer writes it: the list
// header byte 0x00 (no elements, element type 0) instead of 0x0C (no
// elements of type struct). It panics if footer has no such list.
func EmptyListType0(footer []byte) []byte {
	// num_rows 0 (field 3, i64: 0x16 0x00), then field 4, a list (0x19),
	// of 0 structs (0x0C).
	old := []byte{0x16, 0x00, 0x19, 0x0c}
	if bytes.Count(footer, old) != 1 {
		panic("testfile: footer without a single empty row_groups list")
	}
	return bytes.Replace(footer, old, []byte{0x16, 0x00, 0x19, 0x00}, 1)
}

// RequiredInt32 returns a file of one row group that declares numRows rows,
// holding one required INT32 column "a" whose chunk is one uncompressed
// PLAIN data page (v1) of values. numRows may differ from len(values), to
// make a row group that claims rows its chunk does not hold.
func RequiredInt32(numRows int64, values ...int32) []byte {
	leaf := format.SchemaElement{Name: "a", Type: ptr(format.Int32), RepetitionType: ptr(format.Required)}
	schema := []format.SchemaElement{{Name: "root", NumChildren: ptr[int32](1)}, leaf}
	var body []byte
	for _, v := range values {
		body = binary.LittleEndian.AppendUint32(body, uint32(v))
	}
	page := Page(format.PageHeader{
		Type: format.DataPage, HasDataPageHeader: true,
		DataPageHeader: format.DataPageHeader{NumValues: int32(len(values)), Encoding: format.Plain,
			DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE},
	}, body)
	chunk := Chunk{Pages: [][]byte{page}, Meta: format.ColumnMetaData{
		Type: format.Int32, PathInSchema: []string{"a"}, Codec: format.Uncompressed, NumValues: int64(len(values)),
		Encodings: []format.Encoding{format.Plain, format.RLE},
	}}
	return File(schema, numRows, []Chunk{chunk}, nil)
}

func ptr[T any](v T) *T { return &v }
