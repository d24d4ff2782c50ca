package cgotest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"time"

	pq "github.com/parquet-go/parquet-go"
	pqzstd "github.com/parquet-go/parquet-go/compress/zstd"
)

// Realistic whole-file inputs of BenchmarkDecode (issue 17): 1M-row files
// with dictionary strings, nullable and nested columns and timestamps, as
// arrow-go and parquet-go write them, and the larger files of each foreign
// writer in testdata/foreign.

// realRows is the row count of the generated realistic files.
const realRows = 1 << 20

// pgEvent is one row of the parquet-go-written realistic file: a
// timestamp, dictionary strings (required and nullable), a nullable
// double, an optional struct and a list of dictionary strings.
type pgEvent struct {
	TS      time.Time  `parquet:"ts,timestamp(microsecond)"`
	User    string     `parquet:"user,dict"`
	Country *string    `parquet:"country,optional,dict"`
	Amount  *float64   `parquet:"amount,optional"`
	Qty     int32      `parquet:"qty"`
	Addr    *pgAddress `parquet:"addr,optional"`
	Tags    []string   `parquet:"tags,list,dict"`
}

type pgAddress struct {
	City string `parquet:"city,dict"`
	Zip  int32  `parquet:"zip"`
}

// writeParquetGoEvents writes realRows pgEvents with parquet-go's
// GenericWriter, ZSTD and 1 MiB pages, in one row group.
func writeParquetGoEvents() ([]byte, error) {
	rng := rand.New(rand.NewPCG(17, 18))
	users := make([]string, 20000)
	for i := range users {
		users[i] = fmt.Sprintf("user-%06d-%x", i, rng.Uint32())
	}
	countries := []string{"DE", "FR", "US", "GB", "JP", "BR", "IN", "CN", "ES", "IT", "NL", "SE"}
	cities := make([]string, 500)
	for i := range cities {
		cities[i] = fmt.Sprintf("city-%03d", i)
	}
	tags := []string{"new", "promo", "mobile", "web", "returning", "gift", "express", "bulk"}
	var out bytes.Buffer
	w := pq.NewGenericWriter[pgEvent](&out,
		pq.Compression(&pqzstd.Codec{}),
		pq.PageBufferSize(1<<20),
		pq.MaxRowsPerRowGroup(realRows),
		pq.DataPageStatistics(false),
	)
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rows := make([]pgEvent, 4096)
	for done := 0; done < realRows; done += len(rows) {
		for j := range rows {
			i := done + j
			e := &rows[j]
			*e = pgEvent{
				TS:   base.Add(time.Duration(i/8)*time.Second + time.Duration(rng.IntN(1000))*time.Microsecond),
				User: users[rng.IntN(len(users))],
				Qty:  int32(1 + rng.IntN(10)),
			}
			if rng.IntN(10) != 0 {
				c := countries[min(rng.IntN(20), len(countries)-1)]
				e.Country = &c
			}
			if rng.IntN(30) != 0 {
				a := float64(rng.IntN(100000)) / 100
				e.Amount = &a
			}
			if rng.IntN(4) != 0 {
				e.Addr = &pgAddress{City: cities[rng.IntN(len(cities))], Zip: int32(10000 + rng.IntN(90000))}
			}
			for range rng.IntN(4) {
				e.Tags = append(e.Tags, tags[rng.IntN(len(tags))])
			}
		}
		if _, err := w.Write(rows); err != nil {
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// realCases are the generated realistic files, by writer.
var realCases = []struct {
	name  string
	write func() ([]byte, error)
}{
	{"gen-arrow-nested", wideFile},                 // genRecord(1M): nullable, list, dictionary strings, fixed binary; ZSTD
	{"gen-parquetgo-nested", writeParquetGoEvents}, // timestamps, dictionary strings, optional struct, list; ZSTD
}

// foreignBench are the larger files of testdata/foreign, a few per writer,
// dictionary-encoded where the writer chose so.
var foreignBench = []string{
	"arrow-go/default.parquet",
	"arrow-go/codec_zstd.parquet",
	"arrow-rs/default.parquet",
	"arrow-rs/codec_snappy.parquet",
	"duckdb/default.parquet",
	"duckdb/nested.parquet",
	"duckdb/codec_zstd.parquet",
	"parquet-go/codec_zstd.parquet", // (dict.parquet has a dictionary-encoded boolean column arrow-go cannot read)
	"parquet-go/default.parquet",
	"polars/codec_snappy.parquet",
	"polars/nested.parquet",
	"hyparquet/default.parquet",
}
