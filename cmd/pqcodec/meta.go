package main

import (
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/logical"
	"github.com/pqcodec/pqcodec/stats"
)

// writeJSON writes v as one indented JSON document.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// setupFooter is the shape of the commands that read one file from its
// footer: one FILE, a --json flag, and a function of its path and the
// opened file.
func setupFooter(fs *flag.FlagSet, jsonUsage string, do func(path string, f *column.File, r io.ReaderAt, size int64, asJSON bool, stdout io.Writer) error) func([]string, io.Writer, io.Writer) error {
	asJSON := fs.Bool("json", false, jsonUsage)
	return func(positional []string, stdout, _ io.Writer) error {
		path, err := oneFile(positional)
		if err != nil {
			return err
		}
		f, fh, size, err := openFile(path)
		if err != nil {
			return err
		}
		defer fh.Close()
		return do(path, f, fh, size, *asJSON, stdout)
	}
}

func setupSchema(fs *flag.FlagSet) func([]string, io.Writer, io.Writer) error {
	return setupFooter(fs, "print the schema tree as JSON (names, repetitions, types, annotations, levels)",
		func(_ string, f *column.File, _ io.ReaderAt, _ int64, asJSON bool, stdout io.Writer) error {
			if asJSON {
				return writeJSON(stdout, schemaOf(f.Schema().Root()))
			}
			_, err := io.WriteString(stdout, f.Schema().String())
			return err
		})
}

func setupRowCount(fs *flag.FlagSet) func([]string, io.Writer, io.Writer) error {
	return setupFooter(fs, `print {"num_rows": N, "row_groups": [N, ...]}`,
		func(_ string, f *column.File, _ io.ReaderAt, _ int64, asJSON bool, stdout io.Writer) error {
			md := f.MetaData()
			if asJSON {
				groups := make([]int64, len(md.RowGroups))
				for i, rg := range md.RowGroups {
					groups[i] = rg.NumRows
				}
				return writeJSON(stdout, struct {
					NumRows   int64   `json:"num_rows"`
					RowGroups []int64 `json:"row_groups"`
				}{md.NumRows, groups})
			}
			_, err := fmt.Fprintln(stdout, md.NumRows)
			return err
		})
}

// sizeReport is the output of size.
type sizeReport struct {
	FileSize     int64 `json:"file_size"`
	Compressed   int64 `json:"compressed_size"`   // column chunks, page headers included
	Uncompressed int64 `json:"uncompressed_size"` // the same, decompressed
	Footer       int64 `json:"footer_size"`       // the thrift footer
}

func setupSize(fs *flag.FlagSet) func([]string, io.Writer, io.Writer) error {
	return setupFooter(fs, "print the sizes in bytes as JSON",
		func(_ string, f *column.File, r io.ReaderAt, size int64, asJSON bool, stdout io.Writer) error {
			md := f.MetaData()
			rep := sizeReport{FileSize: size}
			for _, rg := range md.RowGroups {
				for _, cc := range rg.Columns {
					if m := cc.MetaData; m != nil {
						rep.Compressed += m.TotalCompressedSize
						rep.Uncompressed += m.TotalUncompressedSize
					}
				}
			}
			var tail [8]byte
			if _, err := r.ReadAt(tail[:], size-8); err != nil {
				return err
			}
			rep.Footer = int64(binary.LittleEndian.Uint32(tail[:4]))
			if asJSON {
				return writeJSON(stdout, rep)
			}
			ratio := 0.0
			if rep.Compressed > 0 {
				ratio = float64(rep.Uncompressed) / float64(rep.Compressed)
			}
			_, err := fmt.Fprintf(stdout, "file:          %s\ncompressed:    %s\nuncompressed:  %s, ratio %.2f\nfooter:        %s\n",
				sizeAndBytes(rep.FileSize), sizeAndBytes(rep.Compressed), sizeAndBytes(rep.Uncompressed), ratio,
				sizeAndBytes(rep.Footer))
			return err
		})
}

// pageReport is one page of the pages command.
type pageReport struct {
	RowGroup     int          `json:"row_group"`
	Column       string       `json:"column"`
	Page         int          `json:"page"` // within the chunk, the dictionary page included
	Offset       int64        `json:"offset"`
	Type         string       `json:"type"`
	Encoding     string       `json:"encoding"`
	Values       int32        `json:"num_values"`
	Nulls        *int32       `json:"num_nulls,omitempty"` // DATA_PAGE_V2
	Rows         *int32       `json:"num_rows,omitempty"`  // DATA_PAGE_V2
	Compressed   int32        `json:"compressed_size"`
	Uncompressed int32        `json:"uncompressed_size"`
	Statistics   *statsReport `json:"statistics,omitempty"`
}

func setupPages(fs *flag.FlagSet) func([]string, io.Writer, io.Writer) error {
	columns := fs.String("columns", "", "comma-separated leaf `paths` (a.b.c) to list (default all)")
	return setupFooter(fs, "print one JSON array of the pages",
		func(path string, f *column.File, fh io.ReaderAt, size int64, asJSON bool, stdout io.Writer) error {
			keep := map[string]bool{}
			if *columns != "" {
				known := map[string]bool{}
				for _, l := range f.Schema().Leaves() {
					known[strings.Join(l.Path(), ".")] = true
				}
				for _, c := range strings.Split(*columns, ",") {
					c = strings.TrimSpace(c)
					if !known[c] {
						return usagef("%s: no leaf column %q", path, c)
					}
					keep[c] = true
				}
			}
			pages, err := listPages(f, fh, size, keep)
			if err != nil {
				return &fileError{path, err}
			}
			if asJSON {
				return writeJSON(stdout, pages)
			}
			return writePages(stdout, pages)
		})
}

// listPages walks the page headers of every column chunk (those in keep,
// when it is not empty). Errors are *column.PageError.
func listPages(f *column.File, r io.ReaderAt, size int64, keep map[string]bool) ([]pageReport, error) {
	md := f.MetaData()
	leaves := f.Schema().Leaves()
	out := []pageReport{}
	var buf []byte
	var w format.PageWalker
	for g := range md.RowGroups {
		for i := range md.RowGroups[g].Columns {
			cc := &md.RowGroups[g].Columns[i]
			name := strings.Join(leaves[i].Path(), ".")
			if len(keep) > 0 && !keep[name] || cc.Encrypted() || cc.MetaData == nil {
				continue
			}
			fail := func(page int, err error) error {
				return &column.PageError{Column: name, RowGroup: g, Page: page, Err: err}
			}
			col, leaf := stats.NewColumn(md, leaves[i]), logical.LeafOf(leaves[i].Element)
			rng, err := md.ColumnChunkRange(cc, size)
			if err != nil {
				return nil, fail(-1, err)
			}
			if buf, err = format.ReadColumnChunk(buf, r, rng); err != nil {
				return nil, fail(-1, err)
			}
			w.Reset(buf, rng)
			page := 0
			for ; w.Next(); page++ {
				h := w.Header()
				p := pageReport{RowGroup: g, Column: name, Page: page, Offset: w.Offset(), Type: h.Type.String(),
					Compressed: h.CompressedPageSize, Uncompressed: h.UncompressedPageSize}
				var st *format.Statistics
				switch h.Type {
				case format.DictionaryPage:
					p.Encoding, p.Values = h.DictionaryPageHeader.Encoding.String(), h.DictionaryPageHeader.NumValues
				case format.DataPage:
					d := &h.DataPageHeader
					p.Encoding, p.Values = d.Encoding.String(), d.NumValues
					if d.HasStatistics {
						st = &d.Statistics
					}
				case format.DataPageV2:
					d := &h.DataPageHeaderV2
					p.Encoding, p.Values = d.Encoding.String(), d.NumValues
					// Copies: the walker reuses its header for the next page.
					nulls, rows := d.NumNulls, d.NumRows
					p.Nulls, p.Rows = &nulls, &rows
					if d.HasStatistics {
						st = &d.Statistics
					}
				}
				if p.Statistics, err = statsOf(col, leaf, st); err != nil {
					return nil, fail(page, err)
				}
				out = append(out, p)
			}
			if err := w.Err(); err != nil {
				return nil, fail(page, err)
			}
		}
	}
	return out, nil
}

func writePages(out io.Writer, pages []pageReport) error {
	var b strings.Builder
	t := table{align: "rlrrllrrrrrl"}
	t.add("group", "column", "page", "offset", "type", "encoding", "values", "nulls", "rows", "compressed", "uncompressed", "statistics")
	opt := func(v *int32) string {
		if v == nil {
			return "-"
		}
		return fmt.Sprint(*v)
	}
	for _, p := range pages {
		t.add(fmt.Sprint(p.RowGroup), p.Column, fmt.Sprint(p.Page), fmt.Sprint(p.Offset), p.Type, p.Encoding,
			fmt.Sprint(p.Values), opt(p.Nulls), opt(p.Rows), sizeText(int64(p.Compressed)),
			sizeText(int64(p.Uncompressed)), p.Statistics.String())
	}
	t.write(&b, "")
	_, err := io.WriteString(out, b.String())
	return err
}
