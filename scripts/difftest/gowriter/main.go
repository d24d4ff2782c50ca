// Command gowriter writes a Parquet file from an Arrow IPC stream with one of
// the Go writers, for the differential test (see ../difftest.mjs):
//
//	gowriter -writer arrow-go|parquet-go -in table.arrows -out file.parquet -options JSON
//	gowriter -read arrow-go -in file.parquet -out table.arrows
//	gowriter -read parquet-go -in file.parquet -out copy.parquet
//
// arrow-go writes the Arrow table with pqarrow. parquet-go copies the rows
// of that file, written by arrow-go without compression or dictionaries,
// into its own writer, so the pages, encodings and codecs are its own.
//
// The read modes read a file written by pqcodec (../readers.mjs): arrow-go
// reads it with pqarrow and writes the table as an Arrow IPC stream;
// parquet-go copies its rows into a file of its own (uncompressed, PLAIN,
// pages v1) for `pqcodec cat --raw` to read.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	pq "github.com/parquet-go/parquet-go"
	pqcompress "github.com/parquet-go/parquet-go/compress"
	pqencoding "github.com/parquet-go/parquet-go/encoding"
)

// options are the writer options drawn by the driver.
type options struct {
	Compression  string            `json:"compression"`
	Version      string            `json:"version"` // data page version: V1 or V2
	Dictionary   bool              `json:"dictionary"`
	PageSize     int64             `json:"pageSize"`     // 0: the writer's default
	RowGroupSize int64             `json:"rowGroupSize"` // 0: the writer's default
	BatchSize    int64             `json:"batchSize"`    // 0: the writer's default
	Stats        bool              `json:"stats"`
	Encodings    map[string]string `json:"encodings"`     // arrow-go: by column path
	KindEncoding map[string]string `json:"kindEncodings"` // parquet-go: by physical type
}

func main() {
	writer := flag.String("writer", "arrow-go", "arrow-go or parquet-go")
	in := flag.String("in", "", "Arrow IPC stream")
	out := flag.String("out", "", "Parquet file to write")
	opts := flag.String("options", "{}", "writer options as JSON")
	read := flag.String("read", "", "read -in with arrow-go or parquet-go instead of writing")
	flag.Parse()
	if *read != "" {
		if err := readFile(*read, *in, *out); err != nil {
			fail(err)
		}
		return
	}
	var o options
	if err := json.Unmarshal([]byte(*opts), &o); err != nil {
		fail(err)
	}
	src, err := os.ReadFile(*in)
	if err != nil {
		fail(err)
	}
	var buf bytes.Buffer
	switch *writer {
	case "arrow-go":
		err = writeArrow(&buf, src, o)
	case "parquet-go":
		var plain bytes.Buffer
		if err = writeArrow(&plain, src, options{Compression: "UNCOMPRESSED", Version: "V1", Stats: true}); err == nil {
			err = writeParquetGo(&buf, plain.Bytes(), o)
		}
	default:
		err = fmt.Errorf("unknown writer %q", *writer)
	}
	if err != nil {
		fail(err)
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gowriter:", err)
	os.Exit(1)
}

var arrowCodecs = map[string]compress.Compression{
	"UNCOMPRESSED": compress.Codecs.Uncompressed, "SNAPPY": compress.Codecs.Snappy, "GZIP": compress.Codecs.Gzip,
	"BROTLI": compress.Codecs.Brotli, "ZSTD": compress.Codecs.Zstd, "LZ4_RAW": compress.Codecs.Lz4Raw,
}

var arrowEncodings = map[string]parquet.Encoding{
	"PLAIN": parquet.Encodings.Plain, "RLE": parquet.Encodings.RLE,
	"DELTA_BINARY_PACKED": parquet.Encodings.DeltaBinaryPacked, "DELTA_LENGTH_BYTE_ARRAY": parquet.Encodings.DeltaLengthByteArray,
	"DELTA_BYTE_ARRAY": parquet.Encodings.DeltaByteArray, "BYTE_STREAM_SPLIT": parquet.Encodings.ByteStreamSplit,
}

func writeArrow(w io.Writer, src []byte, o options) error {
	rd, err := ipc.NewReader(bytes.NewReader(src))
	if err != nil {
		return err
	}
	defer rd.Release()
	codec, ok := arrowCodecs[o.Compression]
	if !ok {
		return fmt.Errorf("arrow-go: no codec %q", o.Compression)
	}
	props := []parquet.WriterProperty{
		parquet.WithCompression(codec), parquet.WithDictionaryDefault(o.Dictionary), parquet.WithStats(o.Stats),
		parquet.WithDataPageVersion(parquet.DataPageV1),
	}
	if o.Version == "V2" {
		props = append(props, parquet.WithDataPageVersion(parquet.DataPageV2))
	}
	if o.PageSize > 0 {
		props = append(props, parquet.WithDataPageSize(o.PageSize))
	}
	if o.RowGroupSize > 0 {
		props = append(props, parquet.WithMaxRowGroupLength(o.RowGroupSize))
	}
	if o.BatchSize > 0 {
		props = append(props, parquet.WithBatchSize(o.BatchSize))
	}
	for path, name := range o.Encodings {
		enc, ok := arrowEncodings[name]
		if !ok {
			return fmt.Errorf("arrow-go: no encoding %q", name)
		}
		props = append(props, parquet.WithEncodingFor(path, enc))
	}
	fw, err := pqarrow.NewFileWriter(rd.Schema(), w, parquet.NewWriterProperties(props...), pqarrow.DefaultWriterProps())
	if err != nil {
		return err
	}
	for rd.Next() {
		if err := fw.Write(rd.RecordBatch()); err != nil {
			fw.Close()
			return err
		}
	}
	if err := rd.Err(); err != nil {
		fw.Close()
		return err
	}
	return fw.Close()
}

var pqCodecs = map[string]pqcompress.Codec{
	"UNCOMPRESSED": &pq.Uncompressed, "SNAPPY": &pq.Snappy, "GZIP": &pq.Gzip, "BROTLI": &pq.Brotli,
	"ZSTD": &pq.Zstd, "LZ4_RAW": &pq.Lz4Raw,
}

var pqEncodings = map[string]pqencoding.Encoding{
	"PLAIN": &pq.Plain, "RLE": &pq.RLE, "RLE_DICTIONARY": &pq.RLEDictionary,
	"DELTA_BINARY_PACKED": &pq.DeltaBinaryPacked, "DELTA_LENGTH_BYTE_ARRAY": &pq.DeltaLengthByteArray,
	"DELTA_BYTE_ARRAY": &pq.DeltaByteArray, "BYTE_STREAM_SPLIT": &pq.ByteStreamSplit,
}

var pqKinds = map[string][]pq.Kind{
	"bool": {pq.Boolean}, "int32": {pq.Int32}, "int64": {pq.Int64}, "float": {pq.Float}, "double": {pq.Double},
	"bytes": {pq.ByteArray}, "flba": {pq.FixedLenByteArray},
}

func writeParquetGo(w io.Writer, src []byte, o options) (err error) {
	// parquet-go panics on an encoding its kind cannot take; report it.
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("parquet-go: panic: %v", r)
		}
	}()
	f, err := pq.OpenFile(bytes.NewReader(src), int64(len(src)))
	if err != nil {
		return err
	}
	codec, ok := pqCodecs[o.Compression]
	if !ok {
		return fmt.Errorf("parquet-go: no codec %q", o.Compression)
	}
	wopts := []pq.WriterOption{f.Schema(), pq.Compression(codec), pq.DataPageStatistics(o.Stats)}
	if o.Version == "V2" {
		wopts = append(wopts, pq.DataPageVersion(2))
	} else {
		wopts = append(wopts, pq.DataPageVersion(1))
	}
	if o.PageSize > 0 {
		wopts = append(wopts, pq.PageBufferSize(int(o.PageSize)))
	}
	if o.RowGroupSize > 0 {
		wopts = append(wopts, pq.MaxRowsPerRowGroup(o.RowGroupSize))
	}
	for kind, name := range o.KindEncoding {
		enc, ok := pqEncodings[name]
		if !ok {
			return fmt.Errorf("parquet-go: no encoding %q", name)
		}
		for _, k := range pqKinds[kind] {
			wopts = append(wopts, pq.DefaultEncodingFor(k, enc))
		}
	}
	pw := pq.NewWriter(w, wopts...)
	rows := f.RowGroups()
	for _, rg := range rows {
		if _, err := pq.CopyRows(pw, rg.Rows()); err != nil {
			return err
		}
	}
	return pw.Close()
}

// readFile reads the Parquet file in with reader and writes what it read to
// out: an Arrow IPC stream (arrow-go) or parquet-go's copy of the rows.
func readFile(reader, in, out string) (err error) {
	src, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	switch reader {
	case "arrow-go":
		err = readArrow(&buf, src)
	case "parquet-go":
		err = writeParquetGo(&buf, src, options{Compression: "UNCOMPRESSED", Version: "V1", Stats: true})
	default:
		err = fmt.Errorf("unknown reader %q", reader)
	}
	if err != nil {
		return err
	}
	return os.WriteFile(out, buf.Bytes(), 0o644)
}

func readArrow(w io.Writer, src []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("arrow-go: panic: %v", r)
		}
	}()
	rd, err := file.NewParquetReader(bytes.NewReader(src))
	if err != nil {
		return err
	}
	defer rd.Close()
	fr, err := pqarrow.NewFileReader(rd, pqarrow.ArrowReadProperties{BatchSize: 1 << 16}, memory.DefaultAllocator)
	if err != nil {
		return err
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		return err
	}
	defer tbl.Release()
	iw := ipc.NewWriter(w, ipc.WithSchema(tbl.Schema()))
	tr := array.NewTableReader(tbl, 1<<16)
	defer tr.Release()
	for tr.Next() {
		if err := iw.Write(tr.RecordBatch()); err != nil {
			return err
		}
	}
	return iw.Close()
}
