// Command jsonl2parquet writes JSON Lines of one of the shapes of
// ../../convertbench.mjs as Parquet with parquet-go's GenericWriter: each
// line decoded by encoding/json into a struct, the structs written in
// batches. It is the Go baseline `pqcodec convert` is timed against
// (bench/CONVERT.md):
//
//	jsonl2parquet -shape flat|strings|nested -codec zstd|snappy IN OUT
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
)

type flat struct {
	ID int64     `json:"id" parquet:"id"`
	A  int64     `json:"a" parquet:"a"`
	B  int64     `json:"b" parquet:"b"`
	X  float64   `json:"x" parquet:"x"`
	Y  float64   `json:"y" parquet:"y"`
	OK bool      `json:"ok" parquet:"ok"`
	T  time.Time `json:"t" parquet:"t,timestamp(microsecond)"`
}

type stringsRow struct {
	ID    int64  `json:"id" parquet:"id"`
	Name  string `json:"name" parquet:"name"`
	City  string `json:"city" parquet:"city"`
	Email string `json:"email" parquet:"email"`
	Text  string `json:"text" parquet:"text"`
	Note  string `json:"note" parquet:"note"`
}

type user struct {
	Name string `json:"name" parquet:"name"`
	Age  int64  `json:"age" parquet:"age"`
}

type event struct {
	K string  `json:"k" parquet:"k"`
	V float64 `json:"v" parquet:"v"`
}

type nested struct {
	ID     int64    `json:"id" parquet:"id"`
	User   user     `json:"user" parquet:"user"`
	Tags   []string `json:"tags" parquet:"tags,list"`
	Events []event  `json:"events" parquet:"events,list"`
}

func main() {
	shape := flag.String("shape", "flat", "flat, strings or nested")
	codec := flag.String("codec", "zstd", "zstd or snappy")
	flag.Parse()
	if flag.NArg() != 2 {
		fail(fmt.Errorf("usage: jsonl2parquet -shape S -codec C IN OUT"))
	}
	var c compress.Codec = &pq.Zstd
	if *codec == "snappy" {
		c = &pq.Snappy
	}
	var err error
	switch *shape {
	case "flat":
		err = run[flat](flag.Arg(0), flag.Arg(1), c)
	case "strings":
		err = run[stringsRow](flag.Arg(0), flag.Arg(1), c)
	case "nested":
		err = run[nested](flag.Arg(0), flag.Arg(1), c)
	default:
		err = fmt.Errorf("unknown shape %q", *shape)
	}
	if err != nil {
		fail(err)
	}
}

func run[T any](in, out string, c compress.Codec) error {
	r, err := os.Open(in)
	if err != nil {
		return err
	}
	defer r.Close()
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	w := pq.NewGenericWriter[T](bw, pq.Compression(c))
	dec := json.NewDecoder(bufio.NewReaderSize(r, 1<<20))
	batch := make([]T, 0, 1024)
	for {
		var v T
		if err := dec.Decode(&v); err == io.EOF {
			break
		} else if err != nil {
			return err
		}
		batch = append(batch, v)
		if len(batch) == cap(batch) {
			if _, err := w.Write(batch); err != nil {
				return err
			}
			batch = batch[:0]
		}
	}
	if _, err := w.Write(batch); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return f.Close()
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "jsonl2parquet:", err)
	os.Exit(1)
}
