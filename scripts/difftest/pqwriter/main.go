// Command pqwriter writes a Parquet file with pqcodec's own writer (package
// rows on package writer), for the differential test (see ../difftest.mjs):
//
//	pqwriter -schema TEXT -in rows.jsonl -out file.parquet -options JSON
//
// The schema is the message-type text format.ParseSchema reads; the rows are
// JSON Lines in the form `pqcodec cat --raw` prints (rows.WithRawJSON); the
// options, drawn by the driver (writers/pqcodec.mjs), map one to one onto
// writer options, so a failing case names every option it was written with.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/rows"
	"github.com/pqcodec/pqcodec/writer"
)

// colOptions are the options of one leaf column, or of every column.
type colOptions struct {
	Codec      string `json:"codec,omitempty"`
	Level      *int   `json:"level,omitempty"`
	Version    int    `json:"version,omitempty"` // data page version, 1 or 2
	Dictionary *bool  `json:"dictionary,omitempty"`
	Encoding   string `json:"encoding,omitempty"` // of the pages not dictionary-encoded
	PageSize   int    `json:"pageSize,omitempty"`
	PageRows   int    `json:"pageRows,omitempty"`
	Stats      *bool  `json:"stats,omitempty"`
	PageIndex  *bool  `json:"pageIndex,omitempty"`
	Bloom      bool   `json:"bloom,omitempty"`
	Checksums  *bool  `json:"checksums,omitempty"`
	StatsTrunc int    `json:"statsTruncate,omitempty"`
	DictLimit  int    `json:"dictionaryLimit,omitempty"` // bytes
}

// options are the writer options drawn by the driver.
type options struct {
	colOptions
	RowGroupRows int64                 `json:"rowGroupRows,omitempty"`
	RowGroupSize int64                 `json:"rowGroupSize,omitempty"`
	Workers      int                   `json:"workers,omitempty"`
	BatchRows    int                   `json:"batchRows,omitempty"`
	Columns      map[string]colOptions `json:"columns,omitempty"`
}

var encodings = map[string]format.Encoding{
	"PLAIN": format.Plain, "RLE": format.RLE, "DELTA_BINARY_PACKED": format.DeltaBinaryPacked,
	"DELTA_LENGTH_BYTE_ARRAY": format.DeltaLengthByteArray, "DELTA_BYTE_ARRAY": format.DeltaByteArray,
	"BYTE_STREAM_SPLIT": format.ByteStreamSplit,
}

func main() {
	schemaText := flag.String("schema", "", "message-type text of the schema")
	in := flag.String("in", "", "rows as JSON Lines, as `pqcodec cat --raw` prints them")
	out := flag.String("out", "", "Parquet file to write")
	opts := flag.String("options", "{}", "writer options as JSON")
	flag.Parse()
	if err := run(*schemaText, *in, *out, *opts); err != nil {
		fmt.Fprintln(os.Stderr, "pqwriter:", err)
		os.Exit(1)
	}
}

func run(schemaText, in, out, optsJSON string) error {
	var o options
	if err := json.Unmarshal([]byte(optsJSON), &o); err != nil {
		return err
	}
	schema, err := format.ParseSchema(schemaText)
	if err != nil {
		return err
	}
	wopts, err := columnOptions(o.colOptions)
	if err != nil {
		return err
	}
	if o.RowGroupRows > 0 {
		wopts = append(wopts, writer.WithRowGroupRows(o.RowGroupRows))
	}
	if o.RowGroupSize > 0 {
		wopts = append(wopts, writer.WithRowGroupSize(o.RowGroupSize))
	}
	if o.Workers > 0 {
		wopts = append(wopts, writer.WithWorkers(o.Workers))
	}
	for path, c := range o.Columns {
		copts, err := columnOptions(c)
		if err != nil {
			return err
		}
		wopts = append(wopts, writer.WithColumn(path, copts...))
	}
	ropts := []rows.WriterOption{rows.WithRawJSON(), rows.WithWriterOptions(wopts...)}
	if o.BatchRows > 0 {
		ropts = append(ropts, rows.WithBatchRows(o.BatchRows))
	}
	src, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	w, err := rows.NewWriter(&buf, schema, ropts...)
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(nil, 1<<30)
	for sc.Scan() {
		if err := w.WriteJSON(sc.Bytes()); err != nil {
			w.Close()
			return err
		}
	}
	if err := sc.Err(); err != nil {
		w.Close()
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return os.WriteFile(out, buf.Bytes(), 0o644)
}

// columnOptions turns c into writer options.
func columnOptions(c colOptions) ([]writer.Option, error) {
	var o []writer.Option
	if c.Codec != "" {
		codec, err := codecfactory.Parse(c.Codec)
		if err != nil {
			return nil, err
		}
		o = append(o, writer.WithCodec(codec))
		if c.Level != nil {
			f, err := codecfactory.New(codecfactory.WithLevel(codec, *c.Level))
			if err != nil {
				return nil, err
			}
			o = append(o, writer.WithCodecs(f))
		}
	}
	if c.Version != 0 {
		o = append(o, writer.WithPageVersion(c.Version))
	}
	if c.Dictionary != nil {
		o = append(o, writer.WithDictionary(*c.Dictionary))
	}
	if c.DictLimit > 0 {
		o = append(o, writer.WithDictionaryLimit(c.DictLimit))
	}
	if c.Encoding != "" {
		e, ok := encodings[c.Encoding]
		if !ok {
			return nil, fmt.Errorf("no encoding %q", c.Encoding)
		}
		o = append(o, writer.WithEncoding(e))
	}
	if c.PageSize > 0 {
		o = append(o, writer.WithPageSize(c.PageSize))
	}
	if c.PageRows > 0 {
		o = append(o, writer.WithPageRows(c.PageRows))
	}
	if c.Stats != nil {
		o = append(o, writer.WithStatistics(*c.Stats))
	}
	if c.StatsTrunc > 0 {
		o = append(o, writer.WithStatisticsTruncate(c.StatsTrunc))
	}
	if c.PageIndex != nil {
		o = append(o, writer.WithPageIndex(*c.PageIndex))
	}
	if c.Checksums != nil {
		o = append(o, writer.WithChecksums(*c.Checksums))
	}
	if c.Bloom {
		o = append(o, writer.WithBloomFilter(1000, 0.01))
	}
	return o, nil
}
