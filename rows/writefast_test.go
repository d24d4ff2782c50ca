package rows

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/format"
)

// fastSchema has a column of every kind the typed path converts, nested
// groups and lists, and a MAP (which it leaves to the general path).
const fastSchema = `message m {
  required int64 id;
  optional int32 i32;
  optional int32 u32 (INTEGER(32,false));
  optional double d;
  optional float f;
  optional boolean ok;
  optional binary s (STRING);
  optional binary raw;
  optional int64 ts (TIMESTAMP(MICROS,true));
  optional int96 t96;
  optional int32 day (DATE);
  optional int64 tod (TIME(NANOS,false));
  optional int64 dec (DECIMAL(12,2));
  optional fixed_len_byte_array(16) id2 (UUID);
  optional fixed_len_byte_array(2) half (FLOAT16);
  optional group user {
    required binary name (STRING);
    optional int32 age;
  }
  optional group tags (LIST) {
    repeated group list {
      optional binary element (STRING);
    }
  }
  optional group events (LIST) {
    repeated group list {
      required group element {
        required binary k (STRING);
        optional double v;
        optional group xs (LIST) {
          repeated group list {
            required int64 element;
          }
        }
      }
    }
  }
  repeated int32 legacy;
  optional group kv (MAP) {
    repeated group key_value {
      required binary key (STRING);
      optional int64 value;
    }
  }
}`

// fastRows are rows of fastSchema, good and bad.
var fastRows = []string{
	`{"id":1,"legacy":[]}`,
	`{"id":2,"legacy":[],"i32":-7,"u32":4294967295,"d":1.5e3,"f":0.25,"ok":true,"s":"héllo","raw":"00ff","ts":"2024-01-31T12:34:56.789Z"}`,
	` {"ts":"2024-01-31T12:34:56+02:00","id":3, "day":"2024-02-29","tod":"23:59:59.123456789","dec":12.30,"legacy":[9]} `,
	`{"id":3,"legacy":[],"dec":"12.30"}`,
	`{"id":4,"legacy":[],"dec":12.3,"id2":"01234567-89ab-cdef-0123-456789abcdef","half":1.5,"t96":"2001-02-03T04:05:06.000000007Z"}`,
	`{"id":5,"legacy":[],"d":"NaN","f":"-Infinity","half":"Infinity","s":"a\"b\\c\u00e9\ud83d\ude00\n"}`,
	`{"id":6,"legacy":[],"user":{"name":"x","age":3},"tags":["a",null,"b"],"events":[{"k":"a","v":1,"xs":[1,2]},{"k":"b","xs":[]},{"v":null,"k":"c"}]}`,
	`{"id":7,"user":{"age":3,"name":"y"},"tags":[],"events":[],"legacy":[1,2,3]}`,
	`{"id":8,"user":null,"tags":null,"events":null,"legacy":[]}`,
	`{"id":9,"legacy":[],"kv":[{"key":"a","value":1},{"key":"b"}]}`,
	"{\"id\":10,\"legacy\":[],\"s\":\"bad \xff utf8\",\"user\":{\"name\":\"\\u0000\"}}",
	`{"id":11,"legacy":[],"id":12}`,
	`{"i\u0064":13,"legacy":[]}`,
	`{"id":14,"s":12.50}`,
	`{"id":15,"ok":"true"}`,
	`{"id":16,"i32":2147483648}`,
	`{"id":17,"legacy":[],"u32":-1}`,
	`{"id":18,"legacy":[],"nope":1}`,
	`{"id":null}`,
	`{"i32":1}`,
	`{"id":19,"user":{"age":3}}`,
	`{"id":20,"events":[{"v":1}]}`,
	`{"id":21,"tags":"a"}`,
	`{"id":22,"user":[1]}`,
	`{"id":23,"d":[1]}`,
	`{"id":24,"dec":12.345}`,
	`{"id":25,"ts":"yesterday"}`,
	`{"id":26,"day":"2024-02-29T00:00:00Z"}`,
	`{"id":27} x`,
	`{"id":28,}`,
	`{"id":29`,
	`[1]`,
	`null`,
	`{"id":30,"d":01}`,
	`{"id":31,"legacy":[null]}`,
	`{"id":32,"events":[{"k":"a","xs":[null]}]}`,
	`{"id":33,"raw":"0g"}`,
	`{"id":34,"s":"tab	in"}`,
	`{"id":35,"legacy":[],"tags":["a"],"tags":["b"]}`,
	`{"id":9223372036854775807,"tod":"24:00:00"}`,
	`{"id":36,"legacy":[],"f":1e40,"d":-0.0,"half":65504}`,
	``,
}

// writeBoth writes rows to a Writer taking each by TryJSON first, as
// WriteJSON and convert do, and to one taking them by WriteValue of
// ParseJSON only, and checks that the typed path takes only rows the
// general one takes, that the errors and row counts agree and that the two
// files are the same bytes.
func writeBoth(t *testing.T, schema *format.Schema, rows []string, opts ...WriterOption) {
	t.Helper()
	var fast, slow bytes.Buffer
	wf, err := NewWriter(&fast, schema, opts...)
	require.NoError(t, err)
	ws, err := NewWriter(&slow, schema, opts...)
	require.NoError(t, err)
	for _, r := range rows {
		ok, err := wf.TryJSON([]byte(r))
		require.NoError(t, err)
		var ferr error
		v, perr := ParseJSON([]byte(r))
		if !ok && perr == nil {
			ferr = wf.WriteValue(v)
		}
		var serr error
		if perr == nil {
			serr = ws.WriteValue(v)
		}
		if ok {
			require.NoError(t, perr, "TryJSON took %q, which is not JSON", r)
			require.NoError(t, serr, "TryJSON took %q, which WriteValue refuses", r)
		} else if perr == nil {
			require.Equal(t, serr, ferr, r)
			if serr != nil {
				require.True(t, errors.Is(serr, ErrRow))
			}
		}
		require.Equal(t, ws.Rows(), wf.Rows(), r)
	}
	require.NoError(t, wf.Close())
	require.NoError(t, ws.Close())
	require.Equal(t, slow.Bytes(), fast.Bytes())
}

// TestTryJSON: TryJSON writes what WriteValue writes, and leaves it the
// rows it cannot take, on every kind of column.
func TestTryJSON(t *testing.T) {
	schema, err := format.ParseSchema(fastSchema)
	require.NoError(t, err)
	taken := 0
	for _, r := range fastRows {
		var buf bytes.Buffer
		w, err := NewWriter(&buf, schema)
		require.NoError(t, err)
		if ok, _ := w.TryJSON([]byte(r)); ok {
			taken++
		}
	}
	require.GreaterOrEqual(t, taken, 8, "the typed path takes the good rows")
	writeBoth(t, schema, fastRows)
	writeBoth(t, schema, fastRows, WithRawJSON())
	writeBoth(t, schema, fastRows, WithBatchRows(3))
	strs, err := format.ParseSchema(`message m { optional binary s (STRING); optional binary t (STRING); }`)
	require.NoError(t, err)
	writeBoth(t, strs, []string{`{"s":1.50,"t":true}`, `{"s":"x","t":false}`, `{"s":-0}`, `{"s":{}}`}, WithScalarsAsText())
	writeBoth(t, strs, []string{`{"s":1.50,"t":true}`, `{"s":"x","t":false}`})
}

// TestTryScalars: a flat row of scalars writes what WriteValue writes of
// the same JSON values.
func TestTryScalars(t *testing.T) {
	schema, err := format.ParseSchema(`message m { required int64 a; optional double b; optional boolean c;
		optional binary s (STRING); optional int64 ts (TIMESTAMP(MILLIS,true)); }`)
	require.NoError(t, err)
	type row struct {
		kinds []Scalar
		texts []string
	}
	N, Num, Str, T, F := ScalarNull, ScalarNumber, ScalarString, ScalarTrue, ScalarFalse
	rows := []row{
		{[]Scalar{Num, Num, T, Str, Str}, []string{"1", "2.5", "", "x", "2024-01-01T00:00:00.001Z"}},
		{[]Scalar{Num, N, F, N, N}, []string{"-3", "", "", "", ""}},
		{[]Scalar{Num, Str, N, Num, N}, []string{"4", "NaN", "", "7", ""}},   // a number for a string: refused
		{[]Scalar{N, N, N, N, N}, []string{"", "", "", "", ""}},              // null in a required field
		{[]Scalar{Num, Num, Num, N, N}, []string{"5", "1", "1", "", ""}},     // a number for a boolean
		{[]Scalar{Num, Num, N, N, Str}, []string{"6", "1e400", "", "", "x"}}, // out of range, not a timestamp
		{[]Scalar{Str, N, N, N, N}, []string{"7", "", "", "", ""}},
		{[]Scalar{Num, N, N, N}, []string{"8", "", "", ""}}, // too few
	}
	toValue := func(r row) map[string]any {
		m := map[string]any{}
		for i, k := range r.kinds {
			if i >= len(schema.Root().Children) {
				break
			}
			name := schema.Root().Children[i].Name()
			switch k {
			case N:
				m[name] = nil
			case Num:
				m[name] = json.Number(r.texts[i])
			case Str:
				m[name] = r.texts[i]
			case T, F:
				m[name] = k == T
			}
		}
		return m
	}
	var fast, slow bytes.Buffer
	wf, err := NewWriter(&fast, schema)
	require.NoError(t, err)
	ws, err := NewWriter(&slow, schema)
	require.NoError(t, err)
	for i, r := range rows {
		ok, err := wf.TryScalars(r.kinds, r.texts)
		require.NoError(t, err)
		serr := ws.WriteValue(toValue(r))
		if ok {
			require.NoError(t, serr, "row %d", i)
		} else {
			require.Equal(t, serr, wf.WriteValue(toValue(r)), "row %d", i)
		}
		require.Equal(t, ws.Rows(), wf.Rows())
		require.Equal(t, i < 2, ok, "row %d", i)
	}
	require.NoError(t, wf.Close())
	require.NoError(t, ws.Close())
	require.Equal(t, slow.Bytes(), fast.Bytes())
}

func FuzzTryJSON(f *testing.F) {
	for _, r := range fastRows {
		f.Add(r)
	}
	schema, err := format.ParseSchema(fastSchema)
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, r string) {
		writeBoth(t, schema, []string{fastRows[1], r, fastRows[5]})
	})
}

var simpleNumberSeeds = []string{"0", "-0", "7", "-7", "007", "123456789012345678", "-999999999999999999",
	"1234567890123456789", "9223372036854775807", "", "-", "+1", "1.5", "-0.0", "0.1", "1234.56", "-123.4567890123456",
	"9007199254740991", "9007199254740993", "1.", ".5", "1e5", "1.2.3", "0.0000000000000000000001",
	"0.00000000000000000000001", "12a", "1_0", "inf", "NaN", "4503599627370497.5", "99999999999999999999",
	"00", "09", "+1", "-1", "1a", "a1", " 1"}

// TestSimpleNumbers: the fast number parsers give strconv's results on
// what they accept.
func TestSimpleNumbers(t *testing.T) {
	for _, s := range simpleNumberSeeds {
		checkSimpleNumbers(t, s)
	}
}

func FuzzSimpleNumbers(f *testing.F) {
	for _, s := range simpleNumberSeeds {
		f.Add(s)
	}
	f.Fuzz(checkSimpleNumbers)
}

func checkSimpleNumbers(t *testing.T, s string) {
	if x, ok := parseSimpleInt(s); ok {
		want, err := strconv.ParseInt(s, 10, 64)
		require.NoError(t, err, s)
		require.Equal(t, want, x, s)
	}
	x, err := parseInt10(s)
	want, werr := strconv.ParseInt(s, 10, 64)
	require.Equal(t, werr == nil, err == nil, s)
	require.Equal(t, want, x, s)
	if len(s) <= 2 {
		x, err := atoi2(s)
		want, werr := strconv.Atoi(s)
		require.Equal(t, werr == nil, err == nil, s)
		require.Equal(t, want, x, s)
	}
	if f, ok := parseSimpleFloat(s); ok {
		want, err := strconv.ParseFloat(s, 64)
		require.NoError(t, err, s)
		require.Equal(t, math.Float64bits(want), math.Float64bits(f), s)
	}
}

// TestSpecial8 compares special8 with a byte-by-byte check, for every byte
// value at every position among plain, high and special neighbours.
func TestSpecial8(t *testing.T) {
	naive := func(v uint64) bool {
		for k := 0; k < 8; k++ {
			c := byte(v >> (8 * k))
			if c == '"' || c == '\\' || c < 0x20 {
				return true
			}
		}
		return false
	}
	for _, fill := range []byte{'a', 0xff, 0x80, 0x20, 0x21, '"' + 1, '\\' + 1, '\\' - 1} {
		for pos := 0; pos < 8; pos++ {
			for b := 0; b < 256; b++ {
				var v uint64
				for k := 0; k < 8; k++ {
					c := fill
					if k == pos {
						c = byte(b)
					}
					v |= uint64(c) << (8 * k)
				}
				require.Equal(t, naive(v), special8(v), "%#x", v)
			}
		}
	}
	x := uint64(0x9e3779b97f4a7c15)
	for range 1 << 20 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		require.Equal(t, naive(x), special8(x), "%#x", x)
	}
}
