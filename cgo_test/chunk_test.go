package cgotest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
)

// chunkData is the decoded content of one column chunk in a form every
// reader can produce and compare: its levels and its non-null values.
//
// Fixed-width values live in Words: BOOLEAN as 0 or 1, INT32 and INT64
// sign-extended, FLOAT and DOUBLE as their IEEE 754 bits (so NaN payloads
// and the sign of zero are compared exactly). INT96, BYTE_ARRAY and
// FIXED_LEN_BYTE_ARRAY values live in Bytes, value i being
// Bytes[Offsets[i]:Offsets[i+1]].
type chunkData struct {
	Path      string
	Type      format.Type
	MaxDef    int
	MaxRep    int
	NumLevels int
	Def       []int16 // empty when MaxDef is 0
	Rep       []int16 // empty when MaxRep is 0
	Words     []uint64
	Bytes     []byte
	Offsets   []int
}

func newChunkData(path string, t format.Type, maxDef, maxRep int) *chunkData {
	return &chunkData{Path: path, Type: t, MaxDef: maxDef, MaxRep: maxRep, Offsets: []int{0}}
}

// wordType reports whether values of t are kept in Words.
func wordType(t format.Type) bool {
	switch t {
	case format.Int96, format.ByteArray, format.FixedLenByteArray:
		return false
	}
	return true
}

// numValues returns the number of non-null values held.
func (c *chunkData) numValues() int {
	if wordType(c.Type) {
		return len(c.Words)
	}
	return len(c.Offsets) - 1
}

func (c *chunkData) appendBytes(b []byte) {
	c.Bytes = append(c.Bytes, b...)
	c.Offsets = append(c.Offsets, len(c.Bytes))
}

func (c *chunkData) appendBool(b bool) {
	if b {
		c.Words = append(c.Words, 1)
	} else {
		c.Words = append(c.Words, 0)
	}
}

func (c *chunkData) appendInt32(v int32)      { c.Words = append(c.Words, uint64(int64(v))) }
func (c *chunkData) appendInt64(v int64)      { c.Words = append(c.Words, uint64(v)) }
func (c *chunkData) appendFloat(v float32)    { c.Words = append(c.Words, uint64(math.Float32bits(v))) }
func (c *chunkData) appendDouble(v float64)   { c.Words = append(c.Words, math.Float64bits(v)) }
func (c *chunkData) value(i int) []byte       { return c.Bytes[c.Offsets[i]:c.Offsets[i+1]] }
func (c *chunkData) formatValue(i int) string { return formatValue(c.Type, c, i) }

// formatValue prints value i of c for error messages.
func formatValue(t format.Type, c *chunkData, i int) string {
	if i >= c.numValues() {
		return "(none)"
	}
	if !wordType(t) {
		v := c.value(i)
		if len(v) > 64 {
			return fmt.Sprintf("%q… (%d bytes)", v[:64], len(v))
		}
		return fmt.Sprintf("%q", v)
	}
	w := c.Words[i]
	switch t {
	case format.Boolean:
		return fmt.Sprint(w == 1)
	case format.Float:
		return fmt.Sprintf("%v (bits %#08x)", math.Float32frombits(uint32(w)), uint32(w))
	case format.Double:
		return fmt.Sprintf("%v (bits %#016x)", math.Float64frombits(w), w)
	}
	return fmt.Sprint(int64(w))
}

// appendPage appends a page read by our column reader.
func (c *chunkData) appendPage(p *column.Page) {
	c.NumLevels += p.NumLevels
	c.Def = append(c.Def, p.DefLevels...)
	c.Rep = append(c.Rep, p.RepLevels...)
	v := &p.Values
	switch v.Type {
	case format.Boolean:
		for _, b := range v.Booleans {
			c.appendBool(b)
		}
	case format.Int32:
		for _, x := range v.Int32s {
			c.appendInt32(x)
		}
	case format.Int64:
		for _, x := range v.Int64s {
			c.appendInt64(x)
		}
	case format.Float:
		for _, x := range v.Floats {
			c.appendFloat(x)
		}
	case format.Double:
		for _, x := range v.Doubles {
			c.appendDouble(x)
		}
	case format.Int96:
		for i := range v.Int96s {
			c.appendBytes(v.Int96s[i][:])
		}
	case format.ByteArray, format.FixedLenByteArray:
		for i := range v.Len() {
			c.appendBytes(v.ByteArray(i))
		}
	}
}

// diff returns a description of the first difference between got and want,
// or "" when they hold the same levels and values.
func diff(got, want *chunkData) string {
	if got.Path != want.Path {
		return fmt.Sprintf("column path %q, want %q", got.Path, want.Path)
	}
	if got.Type != want.Type {
		return fmt.Sprintf("physical type %v, want %v", got.Type, want.Type)
	}
	if got.NumLevels != want.NumLevels {
		return fmt.Sprintf("%d levels, want %d", got.NumLevels, want.NumLevels)
	}
	if d := diffLevels("definition", got.Def, want.Def); d != "" {
		return d
	}
	if d := diffLevels("repetition", got.Rep, want.Rep); d != "" {
		return d
	}
	n, m := got.numValues(), want.numValues()
	for i := range min(n, m) {
		var same bool
		if wordType(got.Type) {
			same = got.Words[i] == want.Words[i]
		} else {
			same = bytes.Equal(got.value(i), want.value(i))
		}
		if !same {
			return fmt.Sprintf("value %d is %s, want %s", i, got.formatValue(i), want.formatValue(i))
		}
	}
	if n != m {
		return fmt.Sprintf("%d values, want %d (first extra or missing: got %s, want %s)",
			n, m, got.formatValue(min(n, m)), want.formatValue(min(n, m)))
	}
	return ""
}

func diffLevels(kind string, got, want []int16) string {
	if i := firstDiff(got, want); i >= 0 {
		g, w := "(none)", "(none)"
		if i < len(got) {
			g = fmt.Sprint(got[i])
		}
		if i < len(want) {
			w = fmt.Sprint(want[i])
		}
		return fmt.Sprintf("%s level %d is %s, want %s (%d levels, want %d)", kind, i, g, w, len(got), len(want))
	}
	return ""
}

func firstDiff(a, b []int16) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

// fileData is every column chunk of a file, indexed [row group][column].
type fileData [][]*chunkData

// ourStats is what our reader saw while reading a file, for the table.
type ourStats struct {
	Codecs    map[string]bool
	Encodings map[string]bool
	Versions  map[int]int // data pages read, by page version
}

func (s *ourStats) add(codec format.CompressionCodec, p *column.Page) {
	s.Codecs[codec.String()] = true
	s.Encodings[p.Encoding.String()] = true
	s.Versions[p.Version]++
}

func keys[K interface{ ~string | ~int }, V any](m map[K]V) []K {
	var out []K
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// readOurs decodes every column chunk of the parquet file in b with our
// column reader.
func readOurs(b []byte, opts ...column.Option) (fileData, *ourStats, error) {
	st := &ourStats{Codecs: map[string]bool{}, Encodings: map[string]bool{}, Versions: map[int]int{}}
	f, err := column.Open(bytes.NewReader(b), int64(len(b)), opts...)
	if err != nil {
		return nil, st, err
	}
	leaves := f.Schema().Leaves()
	out := make(fileData, f.NumRowGroups())
	var r column.Reader
	var p column.Page
	for rg := range out {
		out[rg] = make([]*chunkData, f.NumColumns())
		for col, leaf := range leaves {
			if err := f.ResetReader(&r, rg, col); err != nil {
				return nil, st, err
			}
			c := newChunkData(strings.Join(leaf.Path(), "."), r.MetaData().Type, leaf.MaxDefinitionLevel, leaf.MaxRepetitionLevel)
			for {
				err := r.ReadPage(&p)
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					return nil, st, err
				}
				st.add(r.MetaData().Codec, &p)
				c.appendPage(&p)
			}
			out[rg][col] = c
		}
	}
	return out, st, nil
}

// diffFiles compares every chunk of got with want and returns the first
// difference, naming row group and column, or "".
func diffFiles(got, want fileData) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d row groups, want %d", len(got), len(want))
	}
	for rg := range got {
		if len(got[rg]) != len(want[rg]) {
			return fmt.Sprintf("row group %d: %d columns, want %d", rg, len(got[rg]), len(want[rg]))
		}
		for col := range got[rg] {
			if d := diff(got[rg][col], want[rg][col]); d != "" {
				return fmt.Sprintf("row group %d column %d (%s): %s", rg, col, got[rg][col].Path, d)
			}
		}
	}
	return ""
}
