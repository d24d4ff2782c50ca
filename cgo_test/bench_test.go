package cgotest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	pq "github.com/parquet-go/parquet-go"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// Benchmarks of end-to-end column chunk decoding: for every column chunk of
// a file held in memory (bytes.Reader), read the chunk, decompress and
// decode every page, resolve dictionaries, and produce the values and
// levels. The footer is parsed once, outside the timed loop. b.SetBytes is
// the sum of the chunks' total_uncompressed_size, the same for all three
// readers, so MB/s compare directly.
//
//   - ours: column.File.ResetReader + Reader.ReadPage into one reused Page.
//   - ours-keepdict: the same under column.WithKeepDictionary: dictionary
//     pages give indices into the chunk's dictionary, not values (what an
//     engine uses, and the fair match for the peers' byte arrays, which
//     reference their dictionary instead of copying).
//   - arrow: arrow-go's typed ColumnChunkReader, ReadBatchInPage with
//     reused buffers (its fastest path: values alias the page, no clone).
//   - parquetgo: parquet-go's ColumnChunk.Pages, ReadPage and
//     Page.Values().ReadValues into a reused []parquet.Value, the only
//     parquet-go API that resolves dictionaries and nulls for every page
//     kind.
//
// Before timing, each reader's output (level and value counts, and a hash
// of every value and definition level in order) is computed by the same
// code path and must agree with the others and with the compatibility
// suite's comparison of ours against arrow-go.

// benchCorpus are the larger files of parquet-testing (by uncompressed
// size and page count), covering every codec and the main encodings.
var benchCorpus = []string{
	"alltypes_tiny_pages.parquet",             // 5794 small dictionary/plain pages, uncompressed
	"delta_byte_array.parquet",                // DELTA_BYTE_ARRAY, v2 pages
	"delta_binary_packed.parquet",             // DELTA_BINARY_PACKED, 66 columns
	"lz4_raw_compressed_larger.parquet",       // LZ4_RAW, 10000 strings
	"byte_stream_split_extended.gzip.parquet", // GZIP, BYTE_STREAM_SPLIT of every width
	"nested_structs.rust.parquet",             // ZSTD, 216 dictionary chunks
	"geospatial/geography-polygons.parquet",   // ZSTD, 50 row groups of WKB strings
	"overflow_i16_page_cnt.parquet",           // 40000 boolean pages
}

// benchSum is what one pass of a reader produced; the hashes are nil-safe
// accumulators filled only on the checking pass.
type benchSum struct {
	levels, values int
	h, hdef        uint64
}

func (s *benchSum) word(x uint64) { s.h = (s.h ^ x) * 1099511628211 }
func (s *benchSum) bytes(b []byte) {
	s.word(uint64(len(b)))
	for _, c := range b {
		s.h = (s.h ^ uint64(c)) * 1099511628211
	}
}
func (s *benchSum) defs(d []int16) {
	for _, x := range d {
		s.hdef = (s.hdef ^ uint64(x)) * 1099511628211
	}
}

// benchInput is one file prepared for the benchmarks.
type benchInput struct {
	name  string
	data  []byte
	bytes int64 // sum of total_uncompressed_size
}

// uncompressedSize sums the chunks' total_uncompressed_size from our footer.
func uncompressedSize(b []byte) (int64, error) {
	f, err := column.Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return 0, err
	}
	var n int64
	for _, rg := range f.MetaData().RowGroups {
		for _, c := range rg.Columns {
			n += c.MetaData.TotalUncompressedSize
		}
	}
	return n, nil
}

// ---- ours ----

type oursBench struct {
	f *column.File
	r column.Reader
	p column.Page
	// column, when not -1, is the only column read (BenchmarkDecryptColumn).
	column int
}

func newOursBench(b []byte, opts ...column.Option) (*oursBench, error) {
	f, err := column.Open(bytes.NewReader(b), int64(len(b)), opts...)
	if err != nil {
		return nil, err
	}
	return &oursBench{f: f, column: -1}, nil
}

func (o *oursBench) run(sum *benchSum) error {
	for rg := range o.f.NumRowGroups() {
		for col := range o.f.NumColumns() {
			if o.column >= 0 && col != o.column {
				continue
			}
			if err := o.f.ResetReader(&o.r, rg, col); err != nil {
				return err
			}
			for {
				err := o.r.ReadPage(&o.p)
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					return err
				}
				if sum != nil {
					sumOurPage(sum, &o.p)
				}
			}
		}
	}
	return nil
}

func sumOurPage(s *benchSum, p *column.Page) {
	s.levels += p.NumLevels
	s.values += p.NumValues()
	s.defs(p.DefLevels)
	if p.Dictionary != nil { // under WithKeepDictionary: look each index up
		for _, x := range p.Indices {
			sumOurValue(s, p.Dictionary, int(x))
		}
		return
	}
	for i := range p.Values.Len() {
		sumOurValue(s, &p.Values, i)
	}
}

func sumOurValue(s *benchSum, v *column.Values, i int) {
	switch v.Type {
	case format.Boolean:
		s.word(b2u(v.Booleans[i]))
	case format.Int32:
		s.word(uint64(int64(v.Int32s[i])))
	case format.Int64:
		s.word(uint64(v.Int64s[i]))
	case format.Float:
		s.word(uint64(math.Float32bits(v.Floats[i])))
	case format.Double:
		s.word(math.Float64bits(v.Doubles[i]))
	case format.Int96:
		s.bytes(v.Int96s[i][:])
	default:
		s.bytes(v.ByteArray(i))
	}
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// ---- arrow-go ----

const benchBatch = 16384

type arrowBench struct {
	rdr *file.Reader
	// column, when not -1, is the only column read (BenchmarkDecryptColumn).
	column int
	def    []int16
	rep    []int16
	bufs   struct {
		b   []bool
		i32 []int32
		i64 []int64
		i96 []parquet.Int96
		f32 []float32
		f64 []float64
		ba  []parquet.ByteArray
		fl  []parquet.FixedLenByteArray
	}
}

func newArrowBench(b []byte, opts ...file.ReadOption) (*arrowBench, error) {
	rdr, err := file.NewParquetReader(bytes.NewReader(b), opts...) // opts: encryption_test.go
	if err != nil {
		return nil, err
	}
	a := &arrowBench{rdr: rdr, column: -1, def: make([]int16, benchBatch), rep: make([]int16, benchBatch)}
	a.bufs.b = make([]bool, benchBatch)
	a.bufs.i32 = make([]int32, benchBatch)
	a.bufs.i64 = make([]int64, benchBatch)
	a.bufs.i96 = make([]parquet.Int96, benchBatch)
	a.bufs.f32 = make([]float32, benchBatch)
	a.bufs.f64 = make([]float64, benchBatch)
	a.bufs.ba = make([]parquet.ByteArray, benchBatch)
	a.bufs.fl = make([]parquet.FixedLenByteArray, benchBatch)
	return a, nil
}

func (a *arrowBench) run(sum *benchSum) error {
	schema := a.rdr.MetaData().Schema
	for rg := range a.rdr.NumRowGroups() {
		rgr := a.rdr.RowGroup(rg)
		for col := range rgr.NumColumns() {
			if a.column >= 0 && col != a.column {
				continue
			}
			descr := schema.Column(col)
			var def, rep []int16
			if descr.MaxDefinitionLevel() > 0 {
				def = a.def
			}
			if descr.MaxRepetitionLevel() > 0 {
				rep = a.rep
			}
			cr, err := rgr.Column(col)
			if err != nil {
				return err
			}
			switch cr := cr.(type) {
			case *file.BooleanColumnChunkReader:
				err = arrowBenchLoop(cr, sum, cr.ReadBatchInPage, a.bufs.b, def, rep, func(x bool) { sum.word(b2u(x)) })
			case *file.Int32ColumnChunkReader:
				err = arrowBenchLoop(cr, sum, cr.ReadBatchInPage, a.bufs.i32, def, rep, func(x int32) { sum.word(uint64(int64(x))) })
			case *file.Int64ColumnChunkReader:
				err = arrowBenchLoop(cr, sum, cr.ReadBatchInPage, a.bufs.i64, def, rep, func(x int64) { sum.word(uint64(x)) })
			case *file.Int96ColumnChunkReader:
				err = arrowBenchLoop(cr, sum, cr.ReadBatchInPage, a.bufs.i96, def, rep, func(x parquet.Int96) { sum.bytes(x[:]) })
			case *file.Float32ColumnChunkReader:
				err = arrowBenchLoop(cr, sum, cr.ReadBatchInPage, a.bufs.f32, def, rep, func(x float32) { sum.word(uint64(math.Float32bits(x))) })
			case *file.Float64ColumnChunkReader:
				err = arrowBenchLoop(cr, sum, cr.ReadBatchInPage, a.bufs.f64, def, rep, func(x float64) { sum.word(math.Float64bits(x)) })
			case *file.ByteArrayColumnChunkReader:
				err = arrowBenchLoop(cr, sum, cr.ReadBatchInPage, a.bufs.ba, def, rep, func(x parquet.ByteArray) { sum.bytes(x) })
			case *file.FixedLenByteArrayColumnChunkReader:
				err = arrowBenchLoop(cr, sum, cr.ReadBatchInPage, a.bufs.fl, def, rep, func(x parquet.FixedLenByteArray) { sum.bytes(x) })
			default:
				err = fmt.Errorf("arrow-go: unexpected column reader %T", cr)
			}
			if err != nil {
				return fmt.Errorf("row group %d column %d: %w", rg, col, err)
			}
		}
	}
	return nil
}

func arrowBenchLoop[T any](cr file.ColumnChunkReader, sum *benchSum,
	read func(int64, []T, []int16, []int16) (int64, int, error), values []T, def, rep []int16, add func(T)) error {
	for cr.HasNext() {
		total, n, err := read(benchBatch, values, def, rep)
		if err != nil {
			return err
		}
		if sum != nil {
			sum.levels += int(total)
			sum.values += n
			if def != nil {
				sum.defs(def[:total])
			}
			for _, v := range values[:n] {
				add(v)
			}
		}
	}
	return cr.Err()
}

// ---- parquet-go ----

type parquetGoBench struct {
	f   *pq.File
	buf []pq.Value
}

func newParquetGoBench(b []byte) (*parquetGoBench, error) {
	f, err := pq.OpenFile(bytes.NewReader(b), int64(len(b)), pq.SkipPageIndex(true), pq.SkipBloomFilters(true))
	if err != nil {
		return nil, err
	}
	return &parquetGoBench{f: f, buf: make([]pq.Value, benchBatch)}, nil
}

func (g *parquetGoBench) run(sum *benchSum) error {
	for _, rg := range g.f.RowGroups() {
		for _, cc := range rg.ColumnChunks() {
			leaf, _ := g.f.Schema().Lookup(g.f.Schema().Columns()[cc.Column()]...)
			if err := g.chunk(cc, leaf.MaxDefinitionLevel > 0, sum); err != nil {
				return err
			}
		}
	}
	return nil
}

// chunk's page loop is the twin of readParquetGoChunk (parquetgo_test.go),
// kept apart: this one only checksums the values, that one keeps them.
func (g *parquetGoBench) chunk(cc pq.ColumnChunk, optional bool, sum *benchSum) error {
	pages := cc.Pages()
	defer pages.Close()
	var def [1]int16
	for {
		p, err := pages.ReadPage()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		values := p.Values()
		for {
			n, err := values.ReadValues(g.buf)
			if sum != nil {
				for _, v := range g.buf[:n] {
					sum.levels++
					if optional {
						def[0] = int16(v.DefinitionLevel())
						sum.defs(def[:])
					}
					if v.IsNull() {
						continue
					}
					sum.values++
					switch v.Kind() {
					case pq.Boolean:
						sum.word(b2u(v.Boolean()))
					case pq.Int32:
						sum.word(uint64(int64(v.Int32())))
					case pq.Int64:
						sum.word(uint64(v.Int64()))
					case pq.Float:
						sum.word(uint64(math.Float32bits(v.Float())))
					case pq.Double:
						sum.word(math.Float64bits(v.Double()))
					default:
						sum.bytes(v.Bytes())
					}
				}
			}
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				pq.Release(p)
				return err
			}
		}
		pq.Release(p)
	}
}

// ---- generated files ----

// genRows is the row count of each generated file: about 16 MiB of values
// in three columns, so every column chunk spans several 1 MiB pages.
const genRows = 1 << 19

// writeGenerated writes genRows rows of (ts int64 timestamp, required;
// price double, 2% null; name string, 5% null) with arrow-go's pqarrow
// writer, 1 MiB data pages, the given codec and dictionary setting. The
// values repeat enough for dictionaries to stay below the default 1 MiB
// dictionary page limit: 16 rows per distinct timestamp, prices with two
// decimals below 1000, 10000 distinct names. Its pqarrow write is the twin
// of wideFile's (concurrent_bench_test.go), with other properties.
func writeGenerated(codec compress.Compression, dict bool, extra ...parquet.WriterProperty) ([]byte, error) {
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}},
		{Name: "price", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	bld := array.NewRecordBuilder(mem, schema)
	defer bld.Release()
	rng := rand.New(rand.NewPCG(1, 2))
	names := make([]string, 10000)
	for i := range names {
		names[i] = fmt.Sprintf("customer-%05d-%x", i, rng.Uint32())
	}
	ts := bld.Field(0).(*array.TimestampBuilder)
	price := bld.Field(1).(*array.Float64Builder)
	name := bld.Field(2).(*array.StringBuilder)
	const base = 1_700_000_000_000_000
	for i := range genRows {
		ts.Append(arrow.Timestamp(base + int64(i/16)*1_000_000 + int64(rng.IntN(3))))
		if rng.IntN(50) == 0 {
			price.AppendNull()
		} else {
			price.Append(float64(rng.IntN(100000)) / 100)
		}
		if rng.IntN(20) == 0 {
			name.AppendNull()
		} else {
			name.Append(names[rng.IntN(len(names))])
		}
	}
	rec := bld.NewRecordBatch()
	defer rec.Release()
	props := parquet.NewWriterProperties(append([]parquet.WriterProperty{
		parquet.WithCompression(codec),
		parquet.WithDictionaryDefault(dict),
		parquet.WithDataPageSize(1 << 20),
		parquet.WithMaxRowGroupLength(genRows),
		parquet.WithStats(false),
	}, extra...)...) // extra: encryption_test.go
	var out bytes.Buffer
	w, err := pqarrow.NewFileWriter(schema, &out, props, pqarrow.DefaultWriterProps())
	if err != nil {
		return nil, err
	}
	if err := w.Write(rec); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

var genCases = []struct {
	name  string
	codec compress.Compression
	dict  bool
}{
	{"gen-zstd-dict", compress.Codecs.Zstd, true},
	{"gen-zstd-plain", compress.Codecs.Zstd, false},
	{"gen-snappy-dict", compress.Codecs.Snappy, true},
	{"gen-snappy-plain", compress.Codecs.Snappy, false},
}

// benchInputs loads the corpus files and generates the others, once.
var benchInputs = sync.OnceValues(func() ([]benchInput, error) {
	var in []benchInput
	if dir, ok := testcorpus.Find(); ok {
		for _, name := range benchCorpus {
			b, err := os.ReadFile(filepath.Join(dir, "data", name))
			if err != nil {
				return nil, err
			}
			in = append(in, benchInput{name: filepath.Base(name), data: b})
		}
	}
	for _, g := range genCases {
		b, err := cachedInput(g.name, func() ([]byte, error) { return writeGenerated(g.codec, g.dict) })
		if err != nil {
			return nil, fmt.Errorf("%s: %w", g.name, err)
		}
		in = append(in, benchInput{name: g.name, data: b})
	}
	for _, g := range realCases {
		b, err := cachedInput(g.name, g.write)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", g.name, err)
		}
		in = append(in, benchInput{name: g.name, data: b})
	}
	for _, name := range foreignBench {
		b, err := os.ReadFile(filepath.Join("..", "testdata", "foreign", name))
		if err != nil {
			return nil, err
		}
		in = append(in, benchInput{name: strings.ReplaceAll(name, "/", "-"), data: b})
	}
	for i := range in {
		n, err := uncompressedSize(in[i].data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", in[i].name, err)
		}
		in[i].bytes = n
	}
	return in, nil
})

// cachedInput returns write(), kept as name.parquet in the directory
// PQCODEC_BENCH_CACHE when that is set (so that runs under valgrind need not
// write the files again).
func cachedInput(name string, write func() ([]byte, error)) ([]byte, error) {
	dir := os.Getenv("PQCODEC_BENCH_CACHE")
	if dir == "" {
		return write()
	}
	path := filepath.Join(dir, name+".parquet")
	if b, err := os.ReadFile(path); err == nil {
		return b, nil
	}
	b, err := write()
	if err != nil {
		return nil, err
	}
	return b, os.WriteFile(path, b, 0o644)
}

// parquetGoMisreads are inputs parquet-go v0.32.0 decodes wrongly (see
// COMPATIBILITY.md: it returns "" for value 0 of
// lz4_raw_compressed_larger.parquet, where ours and arrow-go agree on
// "c7ce6bef-..."); it is timed all the same.
var parquetGoMisreads = map[string]bool{"lz4_raw_compressed_larger.parquet": true}

// checkBenchInput verifies, once per input, that our decoding equals
// arrow-go's value by value (as the compatibility suite does) and that the
// three timed code paths produce the same counts and hashes.
func checkBenchInput(in benchInput) error {
	ours, _, err := readOurs(in.data)
	if err != nil {
		return err
	}
	want, err := readArrow(in.data)
	if err != nil {
		return err
	}
	if d := diffFiles(ours, want); d != "" {
		return fmt.Errorf("ours differs from arrow-go: %s", d)
	}
	var so, sk, sa, sp benchSum
	o, err := newOursBench(in.data)
	if err != nil {
		return err
	}
	k, err := newOursBench(in.data, column.WithKeepDictionary(true))
	if err != nil {
		return err
	}
	a, err := newArrowBench(in.data)
	if err != nil {
		return err
	}
	g, err := newParquetGoBench(in.data)
	if err != nil {
		return err
	}
	if err := o.run(&so); err != nil {
		return err
	}
	if err := k.run(&sk); err != nil {
		return err
	}
	if sk != so {
		return fmt.Errorf("timed paths disagree: ours %+v, ours with the dictionary kept %+v", so, sk)
	}
	if err := a.run(&sa); err != nil {
		return err
	}
	if err := g.run(&sp); err != nil {
		return err
	}
	if so != sa {
		return fmt.Errorf("timed paths disagree: ours %+v, arrow-go %+v", so, sa)
	}
	if so != sp && !parquetGoMisreads[in.name] {
		return fmt.Errorf("timed paths disagree: ours %+v, parquet-go %+v", so, sp)
	}
	if so.levels == 0 {
		return fmt.Errorf("nothing decoded")
	}
	return nil
}

// benchRunner decodes every column chunk of its file once per run call,
// filling sum when it is not nil.
type benchRunner interface{ run(sum *benchSum) error }

var benchChecked sync.Map // name -> func() error, the once-only output check

func BenchmarkDecode(b *testing.B) {
	inputs, err := benchInputs()
	if err != nil {
		b.Fatal(err)
	}
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			v, _ := benchChecked.LoadOrStore(in.name, sync.OnceValue(func() error { return checkBenchInput(in) }))
			if err := v.(func() error)(); err != nil {
				b.Fatal(err)
			}
			for _, r := range []struct {
				name string
				mk   func([]byte) (benchRunner, error)
			}{
				{"impl=ours", func(d []byte) (benchRunner, error) { return newOursBench(d) }},
				{"impl=ours-keepdict", func(d []byte) (benchRunner, error) { return newOursBench(d, column.WithKeepDictionary(true)) }},
				{"impl=arrow", func(d []byte) (benchRunner, error) { return newArrowBench(d) }},
				{"impl=parquetgo", func(d []byte) (benchRunner, error) { return newParquetGoBench(d) }},
			} {
				b.Run(r.name, func(b *testing.B) {
					rd, err := r.mk(in.data)
					if err != nil {
						b.Fatal(err)
					}
					if err := rd.run(nil); err != nil { // warm buffers and pools
						b.Fatal(err)
					}
					b.SetBytes(in.bytes)
					b.ReportAllocs()
					b.ResetTimer()
					cpu := cpuTime()
					for b.Loop() {
						if err := rd.run(nil); err != nil {
							b.Fatal(err)
						}
					}
					// The process's CPU time per op (the peers' garbage
					// collection included), which a loaded machine blurs
					// less than wall time.
					b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
				})
			}
		})
	}
}

// TestBenchInputs runs the benchmarks' output check in normal test runs on
// the corpus inputs, so a broken benchmark path fails `go test`. The
// generated inputs are checked only when benchmarking (they take seconds to
// write).
func TestBenchInputs(t *testing.T) {
	dir := testcorpus.Dir(t)
	for _, name := range benchCorpus {
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(dir, "data", name))
			if err != nil {
				t.Fatal(err)
			}
			if err := checkBenchInput(benchInput{name: filepath.Base(name), data: b}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestBenchForeignInputs runs the same check on the foreign-writer inputs
// (small files: fast enough for every test run).
func TestBenchForeignInputs(t *testing.T) {
	for _, name := range foreignBench {
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("..", "testdata", "foreign", name))
			if err != nil {
				t.Fatal(err)
			}
			if err := checkBenchInput(benchInput{name: strings.ReplaceAll(name, "/", "-"), data: b}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestCallgrindDecode decodes one input once with one implementation, for
// instruction counts that a loaded machine does not blur:
//
//	PQCODEC_CG_INPUT=gen-zstd-dict PQCODEC_CG_IMPL=ours PQCODEC_CG_RUNS=3 \
//	GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off valgrind --tool=callgrind ./cgo_test.test -test.run TestCallgrindDecode
//
// PQCODEC_CG_RUNS (default 1) is the number of decodes after the warm one:
// half the difference of the totals of 3 and 1 is the cost of one (Go's
// goroutine stack switches defeat callgrind's --toggle-collect). It is skipped unless PQCODEC_CG_INPUT names an input of BenchmarkDecode.
func TestCallgrindDecode(t *testing.T) {
	name := os.Getenv("PQCODEC_CG_INPUT")
	if name == "" {
		t.Skip("PQCODEC_CG_INPUT not set")
	}
	inputs, err := benchInputs()
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range inputs {
		if in.name != name {
			continue
		}
		var r benchRunner
		switch impl := os.Getenv("PQCODEC_CG_IMPL"); impl {
		case "ours":
			r, err = newOursBench(in.data)
		case "ours-keepdict":
			r, err = newOursBench(in.data, column.WithKeepDictionary(true))
		case "arrow":
			r, err = newArrowBench(in.data)
		case "parquetgo":
			r, err = newParquetGoBench(in.data)
		default:
			t.Fatalf("PQCODEC_CG_IMPL %q: want ours, ours-keepdict, arrow or parquetgo", impl)
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := r.run(nil); err != nil { // warm, as the benchmark does
			t.Fatal(err)
		}
		runs, _ := strconv.Atoi(os.Getenv("PQCODEC_CG_RUNS"))
		for range max(runs, 1) {
			if err := cgMeasured(r); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	t.Fatalf("no input %q", name)
}

//go:noinline
func cgMeasured(r benchRunner) error { return r.run(nil) }
