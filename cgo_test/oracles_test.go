package cgotest

import (
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/pqcodec/pqcodec/format"
)

// An oracle establishes what a data file must decode to. check compares
// our decoding (ours) with it and returns the first difference, or "" when
// every value and level agrees. dir is the corpus data/ directory and b the
// file's bytes.
//
// How each expectation is obtained:
//
//   - arrowOracle (the default): apache/arrow-go v18 reads the same bytes
//     with its low-level column chunk readers (ReadBatch), which return the
//     values and levels as stored, independent of our code.
//   - csvOracle: the corpus's *_expect.csv file, written by the file's
//     author from the input data (delta_*.md). Used in addition to arrow-go.
//   - parquetGoOracle: parquet-go v0.32.0's page reader, for the file that
//     arrow-go cannot open (unknown-logical-type.parquet: arrow-go panics
//     with "invalid logical type" while building its schema; CATALOG.md).
//   - siblingOracle: the LZ4 files (codec LZ4, which neither peer reads)
//     hold the same table as an LZ4_RAW file of the corpus, which arrow-go
//     reads. The claim "same data" is checked, not assumed: apache/arrow-rs's
//     Arrow reader tests (test_read_lz4_raw, test_read_lz4_hadoop_fallback,
//     test_read_lz4_hadoop_large) publish the values of these files, and
//     both our decoding of the LZ4 file and arrow-go's of the sibling must
//     hold them; then ours(LZ4 file) must equal arrow-go(sibling) value by
//     value and level by level.
//   - documentedOracle: datapage_v2_empty_datapage.snappy.parquet, which
//     both peers fail to read (they try to decompress an empty Snappy
//     block); data/README.md documents it as "a compressed FLOAT column
//     with DataPageV2, a single row, value is null".
type oracle struct {
	name  string
	check func(dir string, b []byte, ours fileData) (string, error)
}

var arrowOracle = oracle{"arrow-go", func(_ string, b []byte, ours fileData) (string, error) {
	want, err := readArrow(b)
	if err != nil {
		return "", err
	}
	return diffFiles(ours, want), nil
}}

var parquetGoOracle = oracle{"parquet-go", func(_ string, b []byte, ours fileData) (string, error) {
	want, err := readParquetGo(b)
	if err != nil {
		return "", err
	}
	return diffFiles(ours, want), nil
}}

// csvOracle compares with the expected-values file csvName of data/: one
// CSV column per leaf column, in order, one line per row, an empty
// unquoted field for null.
func csvOracle(csvName string) oracle {
	return oracle{csvName, func(dir string, _ []byte, ours fileData) (string, error) {
		want, err := readExpectCSV(filepath.Join(dir, csvName), ours)
		if err != nil {
			return "", err
		}
		return diffFiles(ours, want), nil
	}}
}

// readExpectCSV builds the expected chunks of a single-row-group flat file
// from its CSV. The physical types and maximum definition levels are taken
// from ours (they are schema metadata, not decoded data); the values and
// levels come from the CSV alone.
func readExpectCSV(path string, ours fileData) (fileData, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	records, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, err
	}
	if len(ours) != 1 {
		return nil, fmt.Errorf("%s describes one row group, file has %d", path, len(ours))
	}
	header, rows := records[0], records[1:]
	if len(header) != len(ours[0]) {
		return nil, fmt.Errorf("%s has %d columns, file %d", path, len(header), len(ours[0]))
	}
	out := fileData{make([]*chunkData, len(header))}
	for j, name := range header {
		// delta_encoding_*_expect.csv spell one header " c_customer_id", and
		// the columns of delta_encoding_required_column.parquet are named
		// with a trailing colon ("c_customer_sk:", as its .md shows) that
		// the CSV header leaves out.
		o := ours[0][j]
		if h := strings.TrimSpace(name); h != o.Path && h+":" != o.Path {
			return nil, fmt.Errorf("%s: column %d is %q, file's is %q", path, j, name, o.Path)
		}
		c := newChunkData(o.Path, o.Type, o.MaxDef, o.MaxRep)
		for i, rec := range rows {
			s := rec[j]
			c.NumLevels++
			if s == "" && c.MaxDef > 0 {
				c.Def = append(c.Def, 0)
				continue
			}
			if c.MaxDef > 0 {
				c.Def = append(c.Def, int16(c.MaxDef))
			}
			switch c.Type {
			case format.Int32:
				v, err := strconv.ParseInt(s, 10, 32)
				if err != nil {
					return nil, fmt.Errorf("%s line %d column %s: %w", path, i+2, name, err)
				}
				c.appendInt32(int32(v))
			case format.Int64:
				v, err := strconv.ParseInt(s, 10, 64)
				if err != nil {
					return nil, fmt.Errorf("%s line %d column %s: %w", path, i+2, name, err)
				}
				c.appendInt64(v)
			case format.ByteArray:
				c.appendBytes([]byte(s))
			default:
				return nil, fmt.Errorf("%s: no CSV reading for %v column %s", path, c.Type, name)
			}
		}
		out[0][j] = c
	}
	return out, nil
}

// published is a value apache/arrow-rs's reader tests assert for an LZ4 or
// LZ4_RAW file of the corpus: value index of the only column of type typ.
type published struct {
	typ   format.Type
	index int
	value any // int64, float64 or string
}

// lz4Small is asserted by arrow-rs for lz4_raw_compressed.parquet,
// hadoop_lz4_compressed.parquet and non_hadoop_lz4_compressed.parquet alike
// (4 rows: INT64 c0, a binary column, a double column).
var lz4Small = func() []published {
	var p []published
	for i, v := range []int64{1593604800, 1593604800, 1593604801, 1593604801} {
		p = append(p, published{format.Int64, i, v})
	}
	for i, v := range []string{"abc", "def", "abc", "def"} {
		p = append(p, published{format.ByteArray, i, v})
	}
	for i, v := range []float64{42.0, 7.7, 42.125, 7.7} {
		p = append(p, published{format.Double, i, v})
	}
	return p
}()

// lz4Larger is asserted by arrow-rs for hadoop_lz4_compressed_larger.parquet:
// 10000 strings, of which the first two and last two are given. Here the
// LZ4_RAW sibling lz4_raw_compressed_larger.parquet must hold them too.
var lz4Larger = []published{
	{format.ByteArray, 0, "c7ce6bef-d5b0-4863-b199-8ea8c7fb117b"},
	{format.ByteArray, 1, "e8fb9197-cb9f-4118-b67f-fbfa65f61843"},
	{format.ByteArray, 9998, "ab52a0cc-c6bb-4d61-8a8f-166dc4b8b13c"},
	{format.ByteArray, 9999, "85440778-460a-41ac-aa2e-ac3ee41696bf"},
}

// checkPublished reports the first published value that d does not hold.
func checkPublished(d fileData, want []published, rows int) string {
	if len(d) != 1 {
		return fmt.Sprintf("%d row groups, want 1", len(d))
	}
	for _, p := range want {
		var c *chunkData
		for _, x := range d[0] {
			if x.Type == p.typ {
				if c != nil {
					return fmt.Sprintf("two %v columns", p.typ)
				}
				c = x
			}
		}
		switch {
		case c == nil:
			return fmt.Sprintf("no %v column", p.typ)
		case c.numValues() != rows || c.NumLevels != rows:
			return fmt.Sprintf("%s: %d values, %d levels, want %d", c.Path, c.numValues(), c.NumLevels, rows)
		}
		var ok bool
		switch v := p.value.(type) {
		case int64:
			ok = int64(c.Words[p.index]) == v
		case float64:
			ok = c.Words[p.index] == math.Float64bits(v)
		case string:
			ok = string(c.value(p.index)) == v
		}
		if !ok {
			return fmt.Sprintf("%s value %d is %s, published %v", c.Path, p.index, c.formatValue(p.index), p.value)
		}
	}
	return ""
}

// siblingOracle compares with arrow-go's decoding of sibling, another file
// of data/ holding the same table, after checking that decoding against the
// values arrow-rs publishes for both files.
func siblingOracle(sibling string, pub []published, rows int) oracle {
	return oracle{"arrow-go on " + sibling, func(dir string, _ []byte, ours fileData) (string, error) {
		b, err := os.ReadFile(filepath.Join(dir, sibling))
		if err != nil {
			return "", err
		}
		want, err := readArrow(b)
		if err != nil {
			return "", err
		}
		if d := checkPublished(want, pub, rows); d != "" {
			return "", fmt.Errorf("sibling %s does not hold the published values: %s", sibling, d)
		}
		if d := checkPublished(ours, pub, rows); d != "" {
			return "published values: " + d, nil
		}
		return diffFiles(ours, asNullable(want, ours)), nil
	}}
}

// asNullable returns want with each required flat column that is optional
// in like given the definition levels it would have there: the maximum
// level for every value. The writers of the LZ4 files and of their LZ4_RAW
// siblings (parquet-mr, parquet-cpp) disagree on the nullability of the
// same columns, which changes the levels stored but not the table.
func asNullable(want, like fileData) fileData {
	out := make(fileData, len(want))
	for rg := range want {
		out[rg] = slices.Clone(want[rg])
		for col, w := range want[rg] {
			if rg >= len(like) || col >= len(like[rg]) {
				continue
			}
			l := like[rg][col]
			if w.MaxDef != 0 || w.MaxRep != 0 || l.MaxRep != 0 || l.MaxDef == 0 {
				continue
			}
			c := *w
			c.MaxDef = l.MaxDef
			c.Def = make([]int16, c.NumLevels)
			for i := range c.Def {
				c.Def[i] = int16(l.MaxDef)
			}
			out[rg][col] = &c
		}
	}
	return out
}

// emptyV2PageOracle is the documented content of
// datapage_v2_empty_datapage.snappy.parquet: one row group, one optional
// FLOAT column, one row, null (one definition level 0, no value).
var emptyV2PageOracle = oracle{"documented (data/README.md)", func(_ string, _ []byte, ours fileData) (string, error) {
	if len(ours) != 1 || len(ours[0]) != 1 {
		return "want one row group of one column", nil
	}
	o := ours[0][0]
	want := newChunkData(o.Path, format.Float, 1, 0)
	want.NumLevels = 1
	want.Def = []int16{0}
	if o.MaxDef != 1 || o.MaxRep != 0 {
		return fmt.Sprintf("max levels def %d rep %d, want an optional column (1, 0)", o.MaxDef, o.MaxRep), nil
	}
	return diff(o, want), nil
}}

// oraclesFor returns the oracles of the data file rel (its path below
// data/, slash-separated). Every file not named here is checked against
// arrow-go, which reads all of them (CATALOG.md's pqarrow failures on
// int96_from_spark and incorrect_map_schema are in Arrow schema
// conversion, which the column chunk readers do not use).
func oraclesFor(rel string) []oracle {
	switch rel {
	case "delta_binary_packed.parquet", "delta_byte_array.parquet",
		"delta_encoding_optional_column.parquet", "delta_encoding_required_column.parquet":
		return []oracle{arrowOracle, csvOracle(strings.TrimSuffix(rel, ".parquet") + "_expect.csv")}
	case "unknown-logical-type.parquet":
		return []oracle{parquetGoOracle}
	case "hadoop_lz4_compressed.parquet", "non_hadoop_lz4_compressed.parquet":
		return []oracle{siblingOracle("lz4_raw_compressed.parquet", lz4Small, 4)}
	case "hadoop_lz4_compressed_larger.parquet":
		return []oracle{siblingOracle("lz4_raw_compressed_larger.parquet", lz4Larger, 10000)}
	case "datapage_v2_empty_datapage.snappy.parquet":
		return []oracle{emptyV2PageOracle}
	}
	return []oracle{arrowOracle}
}
