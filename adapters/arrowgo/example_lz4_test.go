package arrowgo_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/pqcodec/pqcodec/adapters/arrowgo"
)

// Example_lz4 reads, with arrow-go, a file whose pages arrow-rs compressed with
// LZ4 (Hadoop framing), a codec arrow-go does not implement: after
// Register, arrow-go's reader decompresses them with pqcodec's LZ4.
func Example_lz4() {
	if err := arrowgo.Register(); err != nil {
		log.Fatal(err)
	}
	fh, err := os.Open("../../testdata/foreign/arrow-rs/codec_lz4.parquet")
	if err != nil {
		log.Fatal(err)
	}
	defer fh.Close()
	rdr, err := file.NewParquetReader(fh)
	if err != nil {
		log.Fatal(err)
	}
	defer rdr.Close()
	cc, err := rdr.MetaData().RowGroup(0).ColumnChunk(0)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("codec:", cc.Compression())
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		log.Fatal(err)
	}
	table, err := fr.ReadTable(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	defer table.Release()
	sum := int64(0)
	for _, chunk := range table.Column(0).Data().Chunks() {
		for _, v := range chunk.(*array.Int32).Int32Values() {
			sum += int64(v)
		}
	}
	fmt.Printf("%d rows, %d columns; sum of %s: %d\n", table.NumRows(), table.NumCols(), table.Schema().Field(0).Name, sum)
	// Output:
	// codec: LZ4
	// 1200 rows, 38 columns; sum of id: 719400
}
