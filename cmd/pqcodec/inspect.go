package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/encryption"
	"github.com/pqcodec/pqcodec/format"
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
	Schema    *schemaReport    `json:"schema"`
	RowGroups []rowGroupReport `json:"row_groups"`
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
	Path          string     `json:"path"`
	Type          string     `json:"type"`
	Codec         string     `json:"codec"`
	Encodings     []string   `json:"encodings"`
	PageEncodings []string   `json:"page_encodings"` // value encodings of the pages, in order of appearance
	NumValues     int64      `json:"num_values"`
	Pages         pageCounts `json:"pages"`
	Compressed    int64      `json:"compressed_size"`
	Uncompressed  int64      `json:"uncompressed_size"`
	Ratio         float64    `json:"ratio"` // uncompressed / compressed, to 2 decimals
	Encrypted     bool       `json:"encrypted,omitempty"`
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
		Schema: schemaOf(f.Schema().Root())}
	if md.CreatedBy != nil {
		rep.CreatedBy = *md.CreatedBy
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
			var err error
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
	fmt.Fprintf(&b, "file:        %s (%d bytes)\n", rep.File, rep.Size)
	if rep.CreatedBy != "" {
		fmt.Fprintf(&b, "created by:  %s\n", rep.CreatedBy)
	}
	fmt.Fprintf(&b, "version:     %d\n", rep.Version)
	fmt.Fprintf(&b, "rows:        %d in %d row group(s), %d leaf column(s)\n\nschema:\n", rep.NumRows, len(rep.RowGroups), rep.Columns)
	writeSchema(&b, rep.Schema, 0)
	for g, rg := range rep.RowGroups {
		ratio := 0.0
		if rg.Compressed > 0 {
			ratio = float64(rg.Uncompressed) / float64(rg.Compressed)
		}
		fmt.Fprintf(&b, "\nrow group %d: %d rows, %d bytes compressed, %d uncompressed (ratio %.2f)\n",
			g, rg.NumRows, rg.Compressed, rg.Uncompressed, ratio)
		t := table{align: "lllllrrrr"}
		t.add("column", "type", "codec", "encodings", "pages", "values", "compressed", "uncompressed", "ratio")
		for _, c := range rg.Columns {
			if c.Encrypted && c.Codec == "?" { // encryption: no key
				t.add(c.Path, c.Type, "(encrypted)")
				continue
			}
			t.add(c.Path, c.Type, c.Codec, strings.Join(c.Encodings, ","), c.Pages.String(),
				fmt.Sprint(c.NumValues), fmt.Sprint(c.Compressed), fmt.Sprint(c.Uncompressed), fmt.Sprintf("%.2f", c.Ratio))
		}
		t.write(&b, "  ")
	}
	_, err := io.WriteString(out, b.String())
	return err
}

// writeSchema writes n in the message syntax of parquet-java's
// MessageTypeParser, annotated with the logical type (or, without one, the
// converted type).
func writeSchema(b *strings.Builder, n *schemaReport, depth int) {
	indent := strings.Repeat("  ", depth)
	annotation := n.LogicalType
	if annotation == "" {
		annotation = n.ConvertedType
	}
	if annotation != "" {
		annotation = " (" + annotation + ")"
	}
	id := ""
	if n.FieldID != nil {
		id = fmt.Sprintf(" = %d", *n.FieldID)
	}
	if depth == 0 {
		fmt.Fprintf(b, "message %s {\n", n.Name)
	} else if n.Type == "" {
		fmt.Fprintf(b, "%s%s group %s%s%s {\n", indent, strings.ToLower(n.Repetition), n.Name, id, annotation)
	} else {
		t := strings.ToLower(n.Type)
		switch n.Type {
		case "BYTE_ARRAY":
			t = "binary"
		case "FIXED_LEN_BYTE_ARRAY":
			if n.TypeLength != nil {
				t = fmt.Sprintf("fixed_len_byte_array(%d)", *n.TypeLength)
			}
		}
		fmt.Fprintf(b, "%s%s %s %s%s%s;\n", indent, strings.ToLower(n.Repetition), t, n.Name, id, annotation)
		return
	}
	for _, c := range n.Fields {
		writeSchema(b, c, depth+1)
	}
	fmt.Fprintf(b, "%s}\n", indent)
}
