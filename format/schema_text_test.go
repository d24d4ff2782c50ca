package format

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

var updateSchemaText = flag.Bool("update-schema-text", false, "rewrite testdata/schema_text_*.txt from Schema.String")

func p[T any](v T) *T { return &v }

// TestSchemaStringHandWritten checks Schema.String on a schema that holds
// every annotation, against text written by hand from parquet-java's
// MessageType.toString and LogicalTypeAnnotation.toString.
func TestSchemaStringHandWritten(t *testing.T) {
	leaf := func(name string, typ Type, rep FieldRepetitionType) SchemaElement {
		return SchemaElement{Name: name, Type: p(typ), RepetitionType: p(rep)}
	}
	group := func(name string, rep FieldRepetitionType, n int32) SchemaElement {
		return SchemaElement{Name: name, RepetitionType: p(rep), NumChildren: p(n)}
	}
	lt := func(e SchemaElement, l LogicalType) SchemaElement { e.LogicalType = &l; return e }
	ct := func(e SchemaElement, c ConvertedType) SchemaElement { e.ConvertedType = &c; return e }
	id := func(e SchemaElement, v int32) SchemaElement { e.FieldID = &v; return e }

	fixed16 := leaf("u", FixedLenByteArray, Optional)
	fixed16.TypeLength = p(int32(16))
	interval := leaf("iv", FixedLenByteArray, Optional)
	interval.TypeLength = p(int32(12))
	legacyDecimal := ct(leaf("ld", ByteArray, Optional), ConvertedDecimal)
	legacyDecimal.Precision, legacyDecimal.Scale = p(int32(20)), p(int32(4))
	noRep := SchemaElement{Name: "norep", Type: p(Boolean)}
	crs := "EPSG:4326"
	elems := []SchemaElement{
		{Name: "spark_schema"},
		id(leaf("id", Int64, Required), 1),
		id(lt(group("tags", Optional, 1), LogicalType{Kind: LogicalList}), 2),
		group("list", Repeated, 1),
		id(lt(ct(leaf("element", ByteArray, Optional), ConvertedUTF8), LogicalType{Kind: LogicalString}), 3),
		lt(fixed16, LogicalType{Kind: LogicalUUID}),
		lt(ct(leaf("ts", Int64, Optional), ConvertedTimestampMillis), LogicalType{Kind: LogicalTimestamp, Unit: Millis, IsAdjustedToUTC: true}),
		lt(leaf("local_ns", Int64, Optional), LogicalType{Kind: LogicalTimestamp, Unit: Nanos}),
		lt(leaf("tm", Int32, Required), LogicalType{Kind: LogicalTime, Unit: Millis}),
		lt(leaf("d", Int32, Optional), LogicalType{Kind: LogicalDecimal, Precision: 9, Scale: 2}),
		legacyDecimal,
		lt(leaf("u8", Int32, Optional), LogicalType{Kind: LogicalInteger, BitWidth: 8}),
		ct(leaf("i16", Int32, Optional), ConvertedInt16),
		ct(leaf("u64", Int64, Optional), ConvertedUint64),
		ct(interval, ConvertedInterval),
		leaf("x", Int96, Optional),
		ct(leaf("micros", Int64, Optional), ConvertedTimeMicros),
		ct(leaf("day", Int32, Optional), ConvertedDate),
		lt(leaf("j", ByteArray, Optional), LogicalType{Kind: LogicalJSON}),
		ct(leaf("e", ByteArray, Required), ConvertedEnum),
		lt(leaf("nothing", Int32, Optional), LogicalType{Kind: LogicalUnknown}),
		lt(leaf("vec", ByteArray, Optional), LogicalType{Kind: LogicalVector}),
		lt(leaf("geo", ByteArray, Optional), LogicalType{Kind: LogicalGeometry, CRS: &crs}),
		lt(leaf("geog", ByteArray, Optional), LogicalType{Kind: LogicalGeography}),
		noRep,
		lt(ct(group("m", Optional, 1), ConvertedMapKeyValue), LogicalType{Kind: LogicalMap}),
		group("key_value", Repeated, 2),
		lt(leaf("key", ByteArray, Required), LogicalType{Kind: LogicalString}),
		leaf("value", Float, Optional),
	}
	elems[0].NumChildren = p(int32(23))
	s, err := NewSchema(elems)
	require.NoError(t, err)
	want := `message spark_schema {
  required int64 id = 1;
  optional group tags (LIST) = 2 {
    repeated group list {
      optional binary element (STRING) = 3;
    }
  }
  optional fixed_len_byte_array(16) u (UUID);
  optional int64 ts (TIMESTAMP(MILLIS,true));
  optional int64 local_ns (TIMESTAMP(NANOS,false));
  required int32 tm (TIME(MILLIS,false));
  optional int32 d (DECIMAL(9,2));
  optional binary ld (DECIMAL(20,4));
  optional int32 u8 (INTEGER(8,false));
  optional int32 i16 (INTEGER(16,true));
  optional int64 u64 (INTEGER(64,false));
  optional fixed_len_byte_array(12) iv (INTERVAL);
  optional int96 x;
  optional int64 micros (TIME(MICROS,true));
  optional int32 day (DATE);
  optional binary j (JSON);
  required binary e (ENUM);
  optional int32 nothing (UNKNOWN);
  optional binary vec;
  optional binary geo (GEOMETRY(EPSG:4326));
  optional binary geog (GEOGRAPHY);
  required boolean norep;
  optional group m (MAP_KEY_VALUE) {
    repeated group key_value {
      required binary key (STRING);
      optional float value;
    }
  }
}
`
	assert.Equal(t, want, s.String())
}

// TestSchemaStringCorpus compares Schema.String on every file of the
// foreign-writer corpus, the differential-test regressions and (when it is
// present) parquet-testing's data/ with testdata/schema_text_*.txt. Those
// files were written by Schema.String (-update-schema-text) and checked with
// parquet-java (commit 01de5c6): MessageTypeParser.parseMessageType of each
// text, printed by MessageType.toString, gives the same text byte for byte;
// the annotations of a dozen files were also checked by hand against the
// footers (see the commit that added them).
func TestSchemaStringCorpus(t *testing.T) {
	t.Run("repository", func(t *testing.T) {
		var files []string
		for _, g := range []string{"../testdata/foreign/*/*.parquet", "../testdata/difftest/*.parquet"} {
			m, err := filepath.Glob(g)
			require.NoError(t, err)
			files = append(files, m...)
		}
		require.NotEmpty(t, files)
		checkSchemaText(t, "testdata/schema_text_repository.txt", "..", files)
	})
	t.Run("parquet-testing", func(t *testing.T) {
		dir := testcorpus.Dir(t)
		checkSchemaText(t, "testdata/schema_text_parquet_testing.txt", dir, testcorpus.Files(t, "data"))
	})
}

// checkSchemaText renders the schema of each file as "# name" (its path
// relative to root) and its text, and compares all of it with golden.
func checkSchemaText(t *testing.T, golden, root string, files []string) {
	sort.Strings(files)
	var buf bytes.Buffer
	for _, f := range files {
		name, err := filepath.Rel(root, f)
		require.NoError(t, err)
		fh, err := os.Open(f)
		require.NoError(t, err)
		st, err := fh.Stat()
		require.NoError(t, err)
		md, err := ReadFooter(fh, st.Size())
		fh.Close()
		if err != nil {
			fmt.Fprintf(&buf, "# %s\n! %v\n", filepath.ToSlash(name), err)
			continue
		}
		s, err := NewSchema(md.Schema)
		if err != nil {
			fmt.Fprintf(&buf, "# %s\n! %v\n", filepath.ToSlash(name), err)
			continue
		}
		fmt.Fprintf(&buf, "# %s\n%s", filepath.ToSlash(name), s.String())
	}
	if *updateSchemaText {
		require.NoError(t, os.WriteFile(golden, buf.Bytes(), 0o644))
		return
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	if !bytes.Equal(buf.Bytes(), want) {
		got := strings.Split(buf.String(), "\n")
		w := strings.Split(string(want), "\n")
		for i := range min(len(got), len(w)) {
			if got[i] != w[i] {
				t.Fatalf("%s line %d: got %q, want %q", golden, i+1, got[i], w[i])
			}
		}
		t.Fatalf("%s: got %d lines, want %d", golden, len(got), len(w))
	}
}
