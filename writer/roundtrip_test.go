package writer_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/enctable"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
	"github.com/pqcodec/pqcodec/writer"
)

// colData is one leaf column of a whole file, its row groups concatenated.
type colData struct {
	vals      column.Values
	def, rep  []int16
	rowStarts []int // level index of each row's first level, then the level count
	valStarts []int // value index at each row start, then the value count
}

// fileData is what column reads of a file.
type fileData struct {
	schema *format.Schema
	cols   []colData
	rgRows []int64
}

func appendValues(dst *column.Values, src *column.Values) {
	switch src.Type {
	case format.Boolean:
		dst.Booleans = append(dst.Booleans, src.Booleans...)
	case format.Int32:
		dst.Int32s = append(dst.Int32s, src.Int32s...)
	case format.Int64:
		dst.Int64s = append(dst.Int64s, src.Int64s...)
	case format.Int96:
		dst.Int96s = append(dst.Int96s, src.Int96s...)
	case format.Float:
		dst.Floats = append(dst.Floats, src.Floats...)
	case format.Double:
		dst.Doubles = append(dst.Doubles, src.Doubles...)
	case format.FixedLenByteArray:
		dst.Bytes = append(dst.Bytes, src.Bytes...)
	case format.ByteArray:
		if len(dst.Offsets) == 0 {
			dst.Offsets = append(dst.Offsets, 0)
		}
		if len(src.Offsets) == 0 {
			return
		}
		base := int32(len(dst.Bytes)) - src.Offsets[0]
		dst.Bytes = append(dst.Bytes, src.Bytes[src.Offsets[0]:src.Offsets[len(src.Offsets)-1]]...)
		for _, o := range src.Offsets[1:] {
			dst.Offsets = append(dst.Offsets, o+base)
		}
	}
}

// readFile reads every column chunk of the file in b with column.
func readFile(b []byte, opts ...column.Option) (*fileData, error) {
	f, err := column.Open(bytes.NewReader(b), int64(len(b)), opts...)
	if err != nil {
		return nil, err
	}
	fd := &fileData{schema: f.Schema(), cols: make([]colData, f.NumColumns())}
	for rg := range f.NumRowGroups() {
		fd.rgRows = append(fd.rgRows, f.MetaData().RowGroups[rg].NumRows)
	}
	var p column.Page
	for i := range fd.cols {
		c := &fd.cols[i]
		leaf := f.Schema().Leaves()[i]
		t := *leaf.Element.Type
		tl := 0
		if leaf.Element.TypeLength != nil {
			tl = int(*leaf.Element.TypeLength)
		}
		c.vals.Reset(t, tl)
		if t == format.ByteArray {
			c.vals.Offsets = []int32{0}
		}
		for rg := range f.NumRowGroups() {
			r, err := f.Column(rg, i)
			if err != nil {
				return nil, err
			}
			for {
				err := r.ReadPage(&p)
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					return nil, err
				}
				base := len(c.def)
				if leaf.MaxDefinitionLevel == 0 {
					base = c.vals.Len()
				}
				vbase := c.vals.Len()
				for k := range p.NumLevels {
					if len(p.RepLevels) == 0 || p.RepLevels[k] == 0 {
						c.rowStarts = append(c.rowStarts, base+k)
						nv := vbase
						if len(p.DefLevels) > 0 {
							for _, d := range p.DefLevels[:k] {
								if int(d) == leaf.MaxDefinitionLevel {
									nv++
								}
							}
						} else {
							nv += k
						}
						c.valStarts = append(c.valStarts, nv)
					}
				}
				c.def = append(c.def, p.DefLevels...)
				c.rep = append(c.rep, p.RepLevels...)
				appendValues(&c.vals, &p.Values)
			}
		}
		n := len(c.def)
		if leaf.MaxDefinitionLevel == 0 {
			n = c.vals.Len()
		}
		c.rowStarts = append(c.rowStarts, n)
		c.valStarts = append(c.valStarts, c.vals.Len())
	}
	return fd, nil
}

// window returns rows [r0, r1) of c as a batch.
func (c *colData) window(r0, r1 int) (*column.Values, []int16, []int16) {
	l0, l1 := c.rowStarts[r0], c.rowStarts[r1]
	v0, v1 := c.valStarts[r0], c.valStarts[r1]
	v := &column.Values{Type: c.vals.Type, TypeLength: c.vals.TypeLength}
	switch v.Type {
	case format.Boolean:
		v.Booleans = c.vals.Booleans[v0:v1]
	case format.Int32:
		v.Int32s = c.vals.Int32s[v0:v1]
	case format.Int64:
		v.Int64s = c.vals.Int64s[v0:v1]
	case format.Int96:
		v.Int96s = c.vals.Int96s[v0:v1]
	case format.Float:
		v.Floats = c.vals.Floats[v0:v1]
	case format.Double:
		v.Doubles = c.vals.Doubles[v0:v1]
	case format.FixedLenByteArray:
		v.Bytes = c.vals.Bytes[v0*v.TypeLength : v1*v.TypeLength]
	case format.ByteArray:
		v.Bytes, v.Offsets = c.vals.Bytes, c.vals.Offsets[v0:v1+1]
	}
	var def, rep []int16
	if len(c.def) > 0 {
		def = c.def[l0:l1]
	}
	if len(c.rep) > 0 {
		rep = c.rep[l0:l1]
	}
	return v, def, rep
}

func (fd *fileData) numRows() int { return len(fd.cols[0].rowStarts) - 1 }

// writeFile writes fd with opts, in windows of window rows (0: the source's
// row groups, flushed as they were).
func writeFile(fd *fileData, window int, opts ...writer.Option) ([]byte, error) {
	var buf bytes.Buffer
	w, err := writer.New(&buf, fd.schema, opts...)
	if err != nil {
		return nil, err
	}
	var bounds []int
	if window == 0 {
		r := 0
		for _, n := range fd.rgRows {
			bounds = append(bounds, r)
			r += int(n)
		}
		bounds = append(bounds, r)
	} else {
		for r := 0; r < fd.numRows(); r += window {
			bounds = append(bounds, r)
		}
		bounds = append(bounds, fd.numRows())
	}
	for k := 0; k+1 < len(bounds); k++ {
		for i := range fd.cols {
			v, def, rep := fd.cols[i].window(bounds[k], bounds[k+1])
			if err := w.Write(i, v, def, rep); err != nil {
				return nil, err
			}
		}
		if window == 0 {
			if err := w.Flush(); err != nil {
				return nil, err
			}
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func equalValues(a, b *column.Values) error {
	if a.Len() != b.Len() {
		return fmt.Errorf("%d values, want %d", b.Len(), a.Len())
	}
	eq := true
	switch a.Type {
	case format.Boolean:
		eq = slices.Equal(a.Booleans, b.Booleans)
	case format.Int32:
		eq = slices.Equal(a.Int32s, b.Int32s)
	case format.Int64:
		eq = slices.Equal(a.Int64s, b.Int64s)
	case format.Int96:
		eq = slices.Equal(a.Int96s, b.Int96s)
	case format.Float:
		for i := range a.Floats {
			eq = eq && math.Float32bits(a.Floats[i]) == math.Float32bits(b.Floats[i])
		}
	case format.Double:
		for i := range a.Doubles {
			eq = eq && math.Float64bits(a.Doubles[i]) == math.Float64bits(b.Doubles[i])
		}
	case format.FixedLenByteArray:
		eq = bytes.Equal(a.Bytes, b.Bytes)
	case format.ByteArray:
		for i := range a.Len() {
			eq = eq && bytes.Equal(a.ByteArray(i), b.ByteArray(i))
		}
	}
	if !eq {
		for i := range a.Len() {
			if fmt.Sprint(a.Value(i)) != fmt.Sprint(b.Value(i)) {
				return fmt.Errorf("value %d is %v, want %v", i, b.Value(i), a.Value(i))
			}
		}
		return fmt.Errorf("values differ")
	}
	return nil
}

func compareFiles(want, got *fileData) error {
	if len(want.cols) != len(got.cols) {
		return fmt.Errorf("%d columns, want %d", len(got.cols), len(want.cols))
	}
	for i := range want.cols {
		a, b := &want.cols[i], &got.cols[i]
		if !slices.Equal(a.def, b.def) {
			return fmt.Errorf("column %d: definition levels differ", i)
		}
		if !slices.Equal(a.rep, b.rep) {
			return fmt.Errorf("column %d: repetition levels differ", i)
		}
		if err := equalValues(&a.vals, &b.vals); err != nil {
			return fmt.Errorf("column %d: %w", i, err)
		}
	}
	return nil
}

// optionSet is one configuration of the round-trip test; enc picks each
// column's value encoding from the ones that apply to its type.
type optionSet struct {
	name   string
	window func(rows int) int
	opts   []writer.Option
	enc    func(t format.Type, k int) format.Encoding
}

func plainEnc(format.Type, int) format.Encoding { return format.Plain }

// nthEnc returns the k-th non-dictionary encoding that applies to t.
func nthEnc(t format.Type, k int) format.Encoding {
	var encs []format.Encoding
	for _, e := range enctable.Encodings(t) {
		if e != format.RLEDictionary {
			encs = append(encs, e)
		}
	}
	return encs[k%len(encs)]
}

func optionSets(f *codecfactory.Factory) []optionSet {
	whole := func(int) int { return 0 }
	lzo := codecfactory.Lzo
	if !f.CanCompress(lzo) {
		lzo = codecfactory.Uncompressed
	}
	return []optionSet{
		{name: "default", window: whole, enc: plainEnc},
		{name: "v2-snappy-nodict", window: whole, enc: plainEnc,
			opts: []writer.Option{writer.WithPageVersion(2), writer.WithCodec(codecfactory.Snappy), writer.WithDictionary(false)}},
		{name: "v1-gzip-fallback-delta", window: whole, enc: func(t format.Type, _ int) format.Encoding { return nthEnc(t, 1) },
			opts: []writer.Option{writer.WithCodec(codecfactory.Gzip), writer.WithDictionaryLimit(64)}},
		{name: "v2-brotli-fallback-enc2", window: whole, enc: func(t format.Type, _ int) format.Encoding { return nthEnc(t, 2) },
			opts: []writer.Option{writer.WithPageVersion(2), writer.WithCodec(codecfactory.Brotli), writer.WithDictionaryLimit(200)}},
		{name: "v1-lz4-nodict-enc-by-column", window: whole, enc: nthEnc,
			opts: []writer.Option{writer.WithCodec(codecfactory.Lz4), writer.WithDictionary(false)}},
		{name: "v2-lz4raw-tinypages", window: whole, enc: func(t format.Type, k int) format.Encoding { return nthEnc(t, k+1) },
			opts: []writer.Option{writer.WithPageVersion(2), writer.WithCodec(codecfactory.Lz4Raw), writer.WithPageSize(100),
				writer.WithPageRows(7), writer.WithDictionary(false)}},
		{name: "v1-lzo-tinyrowgroups", window: func(rows int) int { return max(3, rows/16) }, enc: plainEnc,
			opts: []writer.Option{writer.WithCodec(lzo), writer.WithRowGroupRows(1), writer.WithPageRows(5)}},
		{name: "v1-uncompressed-nostats", window: whole, enc: plainEnc,
			opts: []writer.Option{writer.WithCodec(codecfactory.Uncompressed), writer.WithStatistics(false),
				writer.WithChecksums(false), writer.WithPageIndex(false)}},
	}
}

// corpusInputs lists the files of testdata/foreign and of the
// parquet-testing corpus.
func corpusInputs(t *testing.T) []string {
	var files []string
	err := filepath.WalkDir("../testdata/foreign", func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".parquet") {
			files = append(files, p)
		}
		return err
	})
	require.NoError(t, err)
	return append(files, testcorpus.Files(t, "data", ".parquet")...)
}

// TestRoundTripCorpus reads every column chunk of every file of the
// corpora that column reads, writes it under each option set, reads the
// result back with column and compares values and levels exactly.
func TestRoundTripCorpus(t *testing.T) {
	f, err := codecfactory.New()
	require.NoError(t, err)
	sets := optionSets(f)
	files := corpusInputs(t)
	read := 0
	for _, path := range files {
		if strings.HasSuffix(path, "large_string_map.brotli.parquet") {
			continue // 2 GiB of strings: more than one Values of this harness holds
		}
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		src, err := readFile(b)
		if err != nil {
			continue // column cannot read it: encrypted or a bad file
		}
		if testing.Short() && len(b) > 1<<20 {
			continue
		}
		read++
		name := strings.TrimPrefix(path, "../")
		for _, set := range sets {
			opts := slices.Clone(set.opts)
			opts = append(opts, writer.WithCodecs(f))
			for k, leaf := range src.schema.Leaves() {
				opts = append(opts, writer.WithColumn(strings.Join(leaf.Path(), "."), writer.WithEncoding(set.enc(*leaf.Element.Type, k))))
			}
			out, err := writeFile(src, set.window(src.numRows()), opts...)
			if err != nil {
				t.Errorf("%s, %s: write: %v", name, set.name, err)
				continue
			}
			back, err := readFile(out)
			if err != nil {
				t.Errorf("%s, %s: read back: %v", name, set.name, err)
				continue
			}
			if err := compareFiles(src, back); err != nil {
				t.Errorf("%s, %s: %v", name, set.name, err)
			}
			if set.name != "v1-uncompressed-nostats" {
				if err := checkStatistics(out); err != nil {
					t.Errorf("%s, %s: statistics: %v", name, set.name, err)
				}
			}
		}
	}
	t.Logf("%d of %d files read and round-tripped under %d option sets", read, len(files), len(sets))
	require.Greater(t, read, 100)
}
