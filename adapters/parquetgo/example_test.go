package parquetgo_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/pqcodec/pqcodec/adapters/parquetgo"
	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/rows"
)

type trade struct {
	ID    int64     `parquet:"id"`
	Price float64   `parquet:"price"`
	At    time.Time `parquet:"at,timestamp(millisecond)"`
	Venue string    `parquet:"venue,dict"`
}

// Example has parquet-go write a file whose pages are compressed by
// pqcodec's ZSTD (native libzstd when cgo is on), then reads it back end to
// end with pqcodec: the codec of its column chunks and its rows.
func Example() {
	codec, err := parquetgo.NewCodec(codecfactory.Zstd, codecfactory.WithZstdLevel(9))
	if err != nil {
		log.Fatal(err)
	}
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[trade](&buf, parquet.Compression(codec))
	start := time.Date(2026, 12, 2, 9, 30, 0, 0, time.UTC)
	for i := range 1000 {
		t := trade{ID: int64(i), Price: 100 + float64(i%50)/4, At: start.Add(time.Duration(i) * time.Second),
			Venue: []string{"XNYS", "XNAS", "BATS"}[i%3]}
		if _, err := w.Write([]trade{t}); err != nil {
			log.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}

	data := buf.Bytes()
	f, err := column.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("codec:", f.MetaData().RowGroups[0].Columns[0].MetaData.Codec)
	r, err := rows.NewReader(f, rows.WithRange(998, -1))
	if err != nil {
		log.Fatal(err)
	}
	for {
		line, err := r.AppendRow(nil)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(string(line))
	}
	// Output:
	// codec: ZSTD
	// {"id":998,"price":112,"at":"2026-12-02T09:46:38.000Z","venue":"BATS"}
	// {"id":999,"price":112.25,"at":"2026-12-02T09:46:39.000Z","venue":"XNYS"}
}
