package logical_test

import (
	"errors"
	"fmt"
	"io"
	"log"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/logical"
)

// Example reads the physical values of three columns of a real file with
// package column and converts them with the conversion LeafOf finds in
// each column's schema element: to Go values (Value) and to the text
// `pqcodec cat` prints (AppendText).
func Example() {
	f, err := column.OpenFile("../testdata/foreign/duckdb/default.parquet")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	for i, leaf := range f.Schema().Leaves() {
		switch leaf.Name() {
		case "ts_ms", "d38", "u64":
		default:
			continue
		}
		conv := logical.LeafOf(leaf.Element)
		r, err := f.Column(0, i)
		if err != nil {
			log.Fatal(err)
		}
		var p column.Page
		if err := r.ReadPage(&p); err != nil && !errors.Is(err, io.EOF) {
			log.Fatal(err)
		}
		raw := p.Values.Value(1) // the second non-null value
		v, err := conv.Value(raw)
		if err != nil {
			log.Fatal(err)
		}
		text, err := conv.AppendText(nil, raw)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s (%v): %T %s\n", leaf.Name(), conv.Kind, v, text)
	}
	// Output:
	// u64 (Integer): uint64 0
	// d38 (Decimal): logical.Decimal -9999999999999999999999999999.9999999999
	// ts_ms (Timestamp): time.Time 2024-02-29T12:00:01.001
}

// ExampleTimeOf tells a TIME from a TIMESTAMP, and a DATE, by the schema
// element, whether the file uses logical types or the legacy converted
// types.
func ExampleTimeOf() {
	f, err := column.OpenFile("../testdata/foreign/duckdb/default.parquet")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	for _, leaf := range f.Schema().Leaves() {
		e := leaf.Element
		if info, ok := logical.TimeOf(e); ok {
			fmt.Printf("%s: %v in %v, adjusted to UTC: %v\n", leaf.Name(), info.Kind, info.Unit, info.IsAdjustedToUTC)
		} else if logical.IsDate(e) {
			fmt.Printf("%s: DATE\n", leaf.Name())
		}
	}
	// Output:
	// dt: DATE
	// tm: TIME in MICROS, adjusted to UTC: false
	// ts: TIMESTAMP in MICROS, adjusted to UTC: false
	// ts_ms: TIMESTAMP in MILLIS, adjusted to UTC: false
	// ts_ns: TIMESTAMP in NANOS, adjusted to UTC: false
	// ts_s: TIMESTAMP in MICROS, adjusted to UTC: false
	// tstz: TIMESTAMP in MICROS, adjusted to UTC: true
}
