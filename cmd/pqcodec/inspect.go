package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/encryption"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/logical"
	"github.com/pqcodec/pqcodec/stats"
)

func setupInspect(fs *flag.FlagSet) func([]string, io.Writer, io.Writer) error {
	asJSON := fs.Bool("json", false, "print one JSON document instead of the table")
	keys := addKeyFlags(fs) // encryption: keys.go
	return func(positional []string, stdout, _ io.Writer) error {
		path, err := oneFile(positional)
		if err != nil {
			return err
		}
		keyOpt, err := keys.option()
		if err != nil {
			return err
		}
		f, fh, size, err := openFile(path, keyOpt)
		if err != nil {
			return err
		}
		defer fh.Close()
		rep, err := inspect(f, fh, size)
		if err != nil {
			return &fileError{path, err}
		}
		rep.File = path
		if *asJSON {
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(rep)
		}
		return rep.writeText(stdout)
	}
}

// inspectReport is what inspect prints; its JSON form is the --json output.
type inspectReport struct {
	File      string           `json:"file"`
	Size      int64            `json:"size"`
	Version   int32            `json:"version"`
	CreatedBy string           `json:"created_by,omitempty"`
	NumRows   int64            `json:"num_rows"`
	Columns   int              `json:"num_columns"`
	KeyValue  []kvEntry        `json:"key_value_metadata"`
	Schema    *schemaReport    `json:"schema"`
	RowGroups []rowGroupReport `json:"row_groups"`

	schemaText string // parquet-java's message text of the schema
}

// kvEntry is one entry of the file's key-value metadata; Value is nil
// when the entry has none.
type kvEntry struct {
	Key   string  `json:"key"`
	Value *string `json:"value"`
}

type schemaReport struct {
	Name          string          `json:"name"`
	Repetition    string          `json:"repetition,omitempty"` // empty for the root
	Type          string          `json:"type,omitempty"`       // empty for groups
	TypeLength    *int32          `json:"type_length,omitempty"`
	LogicalType   string          `json:"logical_type,omitempty"`
	ConvertedType string          `json:"converted_type,omitempty"`
	FieldID       *int32          `json:"field_id,omitempty"`
	MaxDef        int             `json:"max_definition_level"`
	MaxRep        int             `json:"max_repetition_level"`
	Fields        []*schemaReport `json:"fields,omitempty"`
}

type rowGroupReport struct {
	NumRows       int64         `json:"num_rows"`
	TotalByteSize int64         `json:"total_byte_size"`
	Compressed    int64         `json:"compressed_size"`
	Uncompressed  int64         `json:"uncompressed_size"`
	Columns       []chunkReport `json:"columns"`
}

type chunkReport struct {
	Path          string       `json:"path"`
	Type          string       `json:"type"`
	Codec         string       `json:"codec"`
	Encodings     []string     `json:"encodings"`
	PageEncodings []string     `json:"page_encodings"` // value encodings of the pages, in order of appearance
	NumValues     int64        `json:"num_values"`
	Pages         pageCounts   `json:"pages"`
	Compressed    int64        `json:"compressed_size"`
	Uncompressed  int64        `json:"uncompressed_size"`
	Ratio         float64      `json:"ratio"` // uncompressed / compressed, to 2 decimals
	Encrypted     bool         `json:"encrypted,omitempty"`
	Statistics    *statsReport `json:"statistics,omitempty"` // absent when the chunk has none
	// ColumnIndex, OffsetIndex and BloomFilter report whether the chunk
	// has a page index (each half) and a bloom filter; BloomFilterLength
	// is the filter's size in bytes when the footer gives it.
	ColumnIndex       bool   `json:"column_index"`
	OffsetIndex       bool   `json:"offset_index"`
	BloomFilter       bool   `json:"bloom_filter"`
	BloomFilterLength *int32 `json:"bloom_filter_length,omitempty"`
}

// statsReport is the statistics of a column chunk or page, with min and
// max as cat prints values (logical, without JSON quotes; byte arrays that
// are not text in hex), as package stats trusts them: a bound it does not
// trust (wrong sort order, an old writer's) is absent.
type statsReport struct {
	NullCount     *int64  `json:"null_count,omitempty"`
	DistinctCount *int64  `json:"distinct_count,omitempty"`
	NaNCount      *int64  `json:"nan_count,omitempty"`
	Min           *string `json:"min,omitempty"`
	Max           *string `json:"max,omitempty"`
	MinExact      bool    `json:"min_exact,omitempty"`
	MaxExact      bool    `json:"max_exact,omitempty"`
	// Error says why the min and max cannot be used (a min above its max,
	// a bound of the wrong size: stats.Stats.BadMinMax); readers ignore
	// them. The counts above are kept.
	Error string `json:"error,omitempty"`
}

// statsOf returns the report of s (nil when s is nil), typed by col and
// rendered by leaf.
func statsOf(col *stats.Column, leaf logical.Leaf, s *format.Statistics) (*statsReport, error) {
	if s == nil {
		return nil, nil
	}
	st := col.Chunk(s)
	r := &statsReport{}
	if st.BadMinMax != nil {
		r.Error = st.BadMinMax.Error()
	}
	if st.HasNullCount {
		r.NullCount = &st.NullCount
	}
	if st.HasDistinct {
		r.DistinctCount = &st.DistinctCount
	}
	if st.HasNaNCount {
		r.NaNCount = &st.NaNCount
	}
	if st.HasMinMax {
		lo, err := statText(leaf, st.Min)
		if err != nil {
			return nil, err
		}
		hi, err := statText(leaf, st.Max)
		if err != nil {
			return nil, err
		}
		r.Min, r.Max, r.MinExact, r.MaxExact = &lo, &hi, st.MinExact, st.MaxExact
	}
	return r, nil
}

// statText renders a statistics bound as cat renders the value.
func statText(leaf logical.Leaf, v stats.Value) (string, error) {
	var x any
	switch v.Type() {
	case format.Boolean:
		x = v.Boolean()
	case format.Int32:
		x = v.Int32()
	case format.Int64:
		x = v.Int64()
	case format.Float:
		x = v.Float32()
	case format.Double:
		x = v.Float64()
	case format.Int96:
		var b [12]byte
		copy(b[:], v.Bytes())
		x = b
	default:
		x = v.Bytes()
	}
	b, err := leaf.AppendText(nil, x)
	return string(b), err
}

// String returns the short form of r for the text report: "min .. max",
// and the null count.
func (r *statsReport) String() string {
	if r == nil {
		return "-"
	}
	var parts []string
	if r.Error != "" {
		parts = append(parts, "min/max unusable: "+clipText(r.Error, 60))
	}
	if r.Min != nil {
		parts = append(parts, boundText(*r.Min)+" .. "+boundText(*r.Max))
	}
	if r.NullCount != nil {
		parts = append(parts, fmt.Sprintf("%d nulls", *r.NullCount))
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ", ")
}

// boundText is a statistics bound in a table cell: quoted (Go syntax) when
// it is empty or holds spaces or control characters, and clipped to 32
// characters.
func boundText(s string) string {
	if s == "" || strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == 0x7f || r == '"' }) {
		s = strconv.Quote(s)
	}
	return clipText(s, 32)
}

// clipText shortens s to n runes, marking the cut with "…".
func clipText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

type pageCounts struct {
	Dictionary int `json:"dictionary"`
	DataV1     int `json:"data_v1"`
	DataV2     int `json:"data_v2"`
	Index      int `json:"index"`
	Other      int `json:"other,omitempty"`
}

func (p pageCounts) String() string {
	var parts []string
	for _, c := range []struct {
		n    int
		name string
	}{{p.Dictionary, "dict"}, {p.DataV1, "v1"}, {p.DataV2, "v2"}, {p.Index, "index"}, {p.Other, "other"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.name))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, " + ")
}

// inspect builds the report of f, walking the page headers of every
// column chunk. Errors are *column.PageError.
func inspect(f *column.File, r io.ReaderAt, size int64) (*inspectReport, error) {
	md := f.MetaData()
	rep := &inspectReport{Size: size, Version: md.Version, NumRows: md.NumRows, Columns: f.NumColumns(),
		Schema: schemaOf(f.Schema().Root()), schemaText: f.Schema().String(), KeyValue: []kvEntry{}}
	if md.CreatedBy != nil {
		rep.CreatedBy = *md.CreatedBy
	}
	for _, kv := range md.KeyValueMetadata {
		rep.KeyValue = append(rep.KeyValue, kvEntry{kv.Key, kv.Value})
	}
	leaves := f.Schema().Leaves()
	var buf []byte
	var w format.PageWalker
	var dec encryption.ChunkDecryptor // encryption
	for g := range md.RowGroups {
		rg := &md.RowGroups[g]
		rr := rowGroupReport{NumRows: rg.NumRows, TotalByteSize: rg.TotalByteSize}
		for i := range rg.Columns {
			cc := &rg.Columns[i]
			cr := chunkReport{Path: strings.Join(leaves[i].Path(), "."), Type: leaves[i].Element.Type.String(),
				Encodings: []string{}, PageEncodings: []string{}}
			fail := func(page int, err error) error {
				return &column.PageError{Column: cr.Path, RowGroup: g, Page: page, Err: err}
			}
			if cc.MetaData == nil || cc.Encrypted() && !decryptable(f, g, i) { // encryption: keys.go
				cr.Encrypted = cc.Encrypted()
				cr.Codec, cr.Type = "?", leaves[i].Element.Type.String()
				rr.Columns = append(rr.Columns, cr)
				continue
			}
			m := cc.MetaData
			cr.Encrypted = cc.Encrypted()
			cr.ColumnIndex = cc.ColumnIndexOffset != nil && cc.ColumnIndexLength != nil && *cc.ColumnIndexLength > 0
			cr.OffsetIndex = cc.OffsetIndexOffset != nil && cc.OffsetIndexLength != nil && *cc.OffsetIndexLength > 0
			cr.BloomFilter = m.BloomFilterOffset != nil && *m.BloomFilterOffset > 0
			cr.BloomFilterLength = m.BloomFilterLength
			st, err := statsOf(stats.NewColumn(md, leaves[i]), logical.LeafOf(leaves[i].Element), m.Statistics)
			if err != nil {
				return nil, fail(-1, err)
			}
			cr.Statistics = st
			cr.Codec, cr.NumValues = m.Codec.String(), m.NumValues
			cr.Compressed, cr.Uncompressed = m.TotalCompressedSize, m.TotalUncompressedSize
			rr.Compressed += m.TotalCompressedSize
			rr.Uncompressed += m.TotalUncompressedSize
			if m.TotalCompressedSize > 0 {
				cr.Ratio = math.Round(float64(m.TotalUncompressedSize)/float64(m.TotalCompressedSize)*100) / 100
			}
			for _, e := range m.Encodings {
				cr.Encodings = appendUnique(cr.Encodings, e.String())
			}
			if buf, err = f.ReadChunkPages(&w, &dec, buf, g, i); err != nil { // encryption: decrypts
				return nil, err
			}
			page := 0
			for ; w.Next(); page++ {
				h := w.Header()
				switch h.Type {
				case format.DictionaryPage:
					cr.Pages.Dictionary++
					cr.PageEncodings = appendUnique(cr.PageEncodings, h.DictionaryPageHeader.Encoding.String())
				case format.DataPage:
					cr.Pages.DataV1++
					cr.PageEncodings = appendUnique(cr.PageEncodings, h.DataPageHeader.Encoding.String())
				case format.DataPageV2:
					cr.Pages.DataV2++
					cr.PageEncodings = appendUnique(cr.PageEncodings, h.DataPageHeaderV2.Encoding.String())
				case format.IndexPage:
					cr.Pages.Index++
				default:
					cr.Pages.Other++
				}
			}
			if err := w.Err(); err != nil {
				return nil, fail(page, err)
			}
			rr.Columns = append(rr.Columns, cr)
		}
		rep.RowGroups = append(rep.RowGroups, rr)
	}
	if rep.RowGroups == nil {
		rep.RowGroups = []rowGroupReport{}
	}
	return rep, nil
}

func appendUnique(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

func schemaOf(n *format.Node) *schemaReport {
	e := n.Element
	s := &schemaReport{Name: e.Name, TypeLength: e.TypeLength, FieldID: e.FieldID,
		MaxDef: n.MaxDefinitionLevel, MaxRep: n.MaxRepetitionLevel}
	if n.Parent != nil {
		s.Repetition = format.Required.String()
		if e.RepetitionType != nil {
			s.Repetition = e.RepetitionType.String()
		}
	}
	if n.Leaf() {
		s.Type = e.Type.String()
	}
	if e.LogicalType != nil {
		s.LogicalType = e.LogicalType.String()
	}
	if e.ConvertedType != nil {
		s.ConvertedType = e.ConvertedType.String()
		if *e.ConvertedType == format.ConvertedDecimal && e.Precision != nil && e.Scale != nil {
			s.ConvertedType = fmt.Sprintf("DECIMAL(%d,%d)", *e.Precision, *e.Scale)
		}
	}
	for _, c := range n.Children {
		s.Fields = append(s.Fields, schemaOf(c))
	}
	return s
}

// writeText writes the human form of the report.
func (rep *inspectReport) writeText(out io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "file:        %s, %s\n", rep.File, sizeAndBytes(rep.Size))
	if rep.CreatedBy != "" {
		fmt.Fprintf(&b, "created by:  %s\n", rep.CreatedBy)
	}
	fmt.Fprintf(&b, "version:     %d\n", rep.Version)
	fmt.Fprintf(&b, "rows:        %d in %d row group(s), %d leaf column(s)\n", rep.NumRows, len(rep.RowGroups), rep.Columns)
	if len(rep.KeyValue) > 0 {
		fmt.Fprintf(&b, "\nkey-value metadata:\n")
		for _, kv := range rep.KeyValue {
			v := "(no value)"
			if kv.Value != nil {
				v = oneLine(*kv.Value)
				if n := len(*kv.Value); len([]rune(v)) > 80 {
					v = clipText(v, 60) + fmt.Sprintf(" (%s)", sizeText(int64(n)))
				}
			}
			fmt.Fprintf(&b, "  %s = %s\n", kv.Key, v)
		}
	}
	fmt.Fprintf(&b, "\nschema:\n%s", rep.schemaText)
	for g, rg := range rep.RowGroups {
		ratio := 0.0
		if rg.Compressed > 0 {
			ratio = float64(rg.Uncompressed) / float64(rg.Compressed)
		}
		fmt.Fprintf(&b, "\nrow group %d: %d rows, %s compressed, %s uncompressed (ratio %.2f)\n",
			g, rg.NumRows, sizeText(rg.Compressed), sizeText(rg.Uncompressed), ratio)
		t := table{align: "lllllrrrrlll"}
		t.add("column", "type", "codec", "encodings", "pages", "values", "compressed", "uncompressed", "ratio",
			"index", "bloom", "statistics")
		for _, c := range rg.Columns {
			if c.Encrypted && c.Codec == "?" { // encryption: no key
				t.add(c.Path, c.Type, "(encrypted)")
				continue
			}
			index := "-"
			switch {
			case c.ColumnIndex && c.OffsetIndex:
				index = "column+offset"
			case c.ColumnIndex:
				index = "column"
			case c.OffsetIndex:
				index = "offset"
			}
			bloom := "-"
			if c.BloomFilter {
				bloom = "yes"
				if c.BloomFilterLength != nil {
					bloom = sizeText(int64(*c.BloomFilterLength))
				}
			}
			t.add(c.Path, c.Type, c.Codec, strings.Join(c.Encodings, ","), c.Pages.String(),
				fmt.Sprint(c.NumValues), sizeText(c.Compressed), sizeText(c.Uncompressed), fmt.Sprintf("%.2f", c.Ratio),
				index, bloom, c.Statistics.String())
		}
		t.write(&b, "  ")
	}
	_, err := io.WriteString(out, b.String())
	return err
}
