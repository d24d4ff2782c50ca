package writer_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/writer"
)

// TestEncodingsSorted checks that a chunk lists its encodings in the order of
// their enum values, as arrow-rs does, so a PLAIN column with levels lists
// PLAIN before RLE: parquet-go takes the first of the two as the column's
// encoding, and a copy of our rows by a parquet-go writer (File.Schema, then
// CopyRows) failed with "encoding not supported for type BYTE_ARRAY" when
// the levels' RLE came first (scripts/difftest, seed 1000 case 0).
func TestEncodingsSorted(t *testing.T) {
	s, err := format.ParseSchema(`message m {
		optional binary s (STRING);
		optional int32 d;
		optional int64 x;
		required boolean b;
	}`)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := writer.New(&buf, s, writer.WithDictionary(false),
		writer.WithColumn("d", writer.WithDictionary(true)),
		writer.WithColumn("x", writer.WithEncoding(format.DeltaBinaryPacked)),
		writer.WithColumn("b", writer.WithEncoding(format.RLE)))
	if err != nil {
		t.Fatal(err)
	}
	def := []int16{1, 0, 1}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(w.Write(0, &column.Values{Type: format.ByteArray, Bytes: []byte("ab"), Offsets: []int32{0, 1, 2}}, def, nil))
	must(w.Write(1, &column.Values{Type: format.Int32, Int32s: []int32{1, 2}}, def, nil))
	must(w.Write(2, &column.Values{Type: format.Int64, Int64s: []int64{1, 2}}, def, nil))
	must(w.Write(3, &column.Values{Type: format.Boolean, Booleans: []bool{true, false, true}}, nil, nil))
	must(w.Close())
	f, err := column.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	want := [][]format.Encoding{
		{format.Plain, format.RLE},
		{format.Plain, format.RLE, format.RLEDictionary},
		{format.RLE, format.DeltaBinaryPacked},
		{format.RLE},
	}
	for i, c := range f.MetaData().RowGroups[0].Columns {
		if got := c.MetaData.Encodings; !slices.Equal(got, want[i]) {
			t.Errorf("column %d: encodings %v, want %v", i, got, want[i])
		}
	}
}
