package main

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
)

// scalar is a non-null leaf value in a form both sides can produce: kind
// is "int", "bool", "string" or "float32"/"float64"; text is the JSON text
// (numbers) or the decoded string.
type scalar struct{ kind, text string }

// jsonScalars appends the non-null scalars of v, depth first.
func jsonScalars(dst []scalar, v any) []scalar {
	switch v := v.(type) {
	case nil:
	case bool:
		dst = append(dst, scalar{"bool", strconv.FormatBool(v)})
	case json.Number:
		dst = append(dst, scalar{"number", string(v)})
	case string:
		dst = append(dst, scalar{"string", v})
	case []any:
		for _, x := range v {
			dst = jsonScalars(dst, x)
		}
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys) // only single-leaf fields are compared in order
		for _, k := range keys {
			dst = jsonScalars(dst, v[k])
		}
	}
	return dst
}

// columnValue is one value read from a column.Reader, before formatting.
type columnValue struct {
	typ   format.Type
	text  bool // BYTE_ARRAY annotated as text
	i     int64
	b     bool
	f     float64
	bytes []byte
}

// matches reports whether the JSON scalar s is the value v, checking
// numbers by parsing them back: integers exactly, floats to the same bits
// at the column's precision.
func (v columnValue) matches(s scalar) bool {
	switch v.typ {
	case format.Boolean:
		return s.kind == "bool" && s.text == strconv.FormatBool(v.b)
	case format.Int32, format.Int64:
		return s.kind == "number" && s.text == strconv.FormatInt(v.i, 10)
	case format.Float, format.Double:
		bits := 64
		if v.typ == format.Float {
			bits = 32
		}
		switch {
		case math.IsNaN(v.f):
			return s == scalar{"string", "NaN"}
		case math.IsInf(v.f, 1):
			return s == scalar{"string", "Infinity"}
		case math.IsInf(v.f, -1):
			return s == scalar{"string", "-Infinity"}
		}
		if s.kind != "number" {
			return false
		}
		f, err := strconv.ParseFloat(s.text, bits)
		return err == nil && math.Float64bits(f) == math.Float64bits(v.f)
	}
	if v.text {
		// encoding/json turns every invalid byte into U+FFFD, as a
		// conversion to []rune does.
		return s.kind == "string" && s.text == string([]rune(string(v.bytes)))
	}
	return s.kind == "string" && s.text == hex.EncodeToString(v.bytes)
}

func (v columnValue) String() string {
	return fmt.Sprintf("%v %v %v %v %x", v.typ, v.i, v.b, v.f, v.bytes)
}

// readLeaf reads every non-null value of a leaf column with column.Reader.
func readLeaf(t *testing.T, f *column.File, leaf *format.Node) []columnValue {
	var out []columnValue
	var p column.Page
	text := false
	if e := leaf.Element; e.LogicalType != nil {
		k := e.LogicalType.Kind
		text = k == format.LogicalString || k == format.LogicalEnum || k == format.LogicalJSON
	} else if e.ConvertedType != nil {
		c := *e.ConvertedType
		text = c == format.ConvertedUTF8 || c == format.ConvertedEnum || c == format.ConvertedJSON
	}
	for rg := range f.NumRowGroups() {
		r, err := f.Column(rg, leaf.ColumnIndex)
		require.NoError(t, err)
		for {
			err := r.ReadPage(&p)
			if errors.Is(err, io.EOF) {
				break
			}
			require.NoError(t, err)
			vals := &p.Values
			for i := range vals.Len() {
				v := columnValue{typ: vals.Type, text: text}
				switch vals.Type {
				case format.Boolean:
					v.b = vals.Booleans[i]
				case format.Int32:
					v.i = int64(vals.Int32s[i])
				case format.Int64:
					v.i = vals.Int64s[i]
				case format.Int96:
					v.bytes = slices.Clone(vals.Int96s[i][:])
				case format.Float:
					v.f = float64(vals.Floats[i])
				case format.Double:
					v.f = vals.Doubles[i]
				default:
					v.bytes = slices.Clone(vals.ByteArray(i))
				}
				out = append(out, v)
			}
		}
	}
	return out
}

func leavesUnder(n *format.Node) []*format.Node {
	if n.Leaf() {
		return []*format.Node{n}
	}
	var out []*format.Node
	for _, c := range n.Children {
		out = append(out, leavesUnder(c)...)
	}
	return out
}

// compareWithColumns parses cat's JSON output of f back and compares it
// with the values the column readers return: for a top-level field with one
// leaf column, the non-null scalars in document order must be the column's
// non-null values in order; for a field with several, the same values must
// appear, each once, in any order.
func compareWithColumns(t *testing.T, f *column.File, out string) {
	got := map[string][]scalar{}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.UseNumber()
	for {
		var row map[string]any
		if err := dec.Decode(&row); errors.Is(err, io.EOF) {
			break
		} else {
			require.NoError(t, err)
		}
		for k, v := range row {
			got[k] = jsonScalars(got[k], v)
		}
	}
	for _, field := range f.Schema().Root().Children {
		var want []columnValue
		leaves := leavesUnder(field)
		for _, leaf := range leaves {
			want = append(want, readLeaf(t, f, leaf)...)
		}
		have := got[field.Name()]
		require.Len(t, have, len(want), "field %s: non-null values", field.Name())
		if len(leaves) == 1 {
			for i := range want {
				if !want[i].matches(have[i]) {
					t.Fatalf("field %s value %d: JSON %v, column %v", field.Name(), i, have[i], want[i])
				}
			}
			continue
		}
		// Several leaves: match each column value to one unused JSON
		// scalar.
		used := make([]bool, len(have))
		for i, w := range want {
			found := false
			for j := range have {
				if !used[j] && w.matches(have[j]) {
					used[j], found = true, true
					break
				}
			}
			if !found {
				t.Fatalf("field %s: column value %d (%v) not in the JSON", field.Name(), i, w)
			}
		}
	}
}

func TestSingleLeafOrderIsChecked(t *testing.T) {
	// The oracle must be able to fail: a wrong value does not match.
	v := columnValue{typ: format.Float, f: float64(float32(0.1))}
	assert.True(t, v.matches(scalar{"number", "0.1"}))
	assert.False(t, v.matches(scalar{"number", "0.10000001"}))
	assert.False(t, columnValue{typ: format.Double, f: math.Copysign(0, -1)}.matches(scalar{"number", "0"}))
	assert.True(t, columnValue{typ: format.Double, f: math.Copysign(0, -1)}.matches(scalar{"number", "-0"}))
	assert.False(t, columnValue{typ: format.Int64, i: 1 << 60}.matches(scalar{"number", "1.152921504606847e+18"}))
}
