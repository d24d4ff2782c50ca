package bench

import (
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	pqgo "github.com/parquet-go/parquet-go"
	pqgozstd "github.com/parquet-go/parquet-go/compress/zstd"
	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/internal/benchdata"
	"github.com/pqcodec/pqcodec/recompress"
)

// The rewrite benchmarks recompress a generated file of about
// PQCODEC_REWRITE_MB megabytes (default 200) from SNAPPY, GZIP and LZ4_RAW
// to ZSTD (level 3 everywhere), three ways: pqcodec's recompress.Rewrite
// with 1 and 2 workers; arrow-go reading record batches with pqarrow and
// writing them with a ZSTD pqarrow writer (one row group per source row
// group); and parquet-go copying the rows of every row group into a writer
// with ZSTD compression. The files are generated once into the directory
// PQCODEC_REWRITE_DIR (default: the system temporary directory) and kept.
// MB/s is of the source file's bytes.

const rewriteRowGroupRows = 1 << 20

func rewriteMB() int {
	if s := os.Getenv("PQCODEC_REWRITE_MB"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			return n
		}
	}
	return 200
}

var rewriteSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "ts", Type: arrow.PrimitiveTypes.Int64},
	{Name: "price", Type: arrow.PrimitiveTypes.Float64},
	{Name: "qty", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "category", Type: arrow.BinaryTypes.String},
	{Name: "token", Type: arrow.BinaryTypes.String},
	{Name: "note", Type: arrow.BinaryTypes.String, Nullable: true},
}, nil)

var categories = []string{"books", "garden", "toys", "electronics", "grocery", "music", "sports", "tools", "beauty", "auto"}
var words = []string{"the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "parquet", "page", "codec", "column", "row", "group", "file"}

// rewriteBatch builds rows [start, start+n) of the generated table.
func rewriteBatch(rng *rand.Rand, start, n int) arrow.Record {
	b := array.NewRecordBuilder(memory.DefaultAllocator, rewriteSchema)
	defer b.Release()
	id := b.Field(0).(*array.Int64Builder)
	ts := b.Field(1).(*array.Int64Builder)
	price := b.Field(2).(*array.Float64Builder)
	qty := b.Field(3).(*array.Int32Builder)
	cat := b.Field(4).(*array.StringBuilder)
	tok := b.Field(5).(*array.StringBuilder)
	note := b.Field(6).(*array.StringBuilder)
	var raw [12]byte
	t := int64(1_700_000_000_000_000) + int64(start)*1000
	for i := range n {
		id.Append(int64(start + i))
		t += int64(rng.IntN(2000))
		ts.Append(t)
		price.Append(float64(rng.IntN(100000)) / 100)
		if rng.IntN(10) == 0 {
			qty.AppendNull()
		} else {
			qty.Append(int32(rng.IntN(50)))
		}
		cat.Append(categories[rng.IntN(len(categories))])
		for k := range raw {
			raw[k] = byte(rng.Uint32())
		}
		tok.Append(hex.EncodeToString(raw[:]))
		if rng.IntN(4) == 0 {
			note.AppendNull()
		} else {
			s := ""
			for k := range 3 + rng.IntN(6) {
				if k > 0 {
					s += " "
				}
				s += words[rng.IntN(len(words))]
			}
			note.Append(s)
		}
	}
	return b.NewRecord()
}

var rewriteFiles sync.Map // codec name -> path

// rewriteFile returns the path of the generated source file compressed
// with c, writing it on first use.
func rewriteFile(tb testing.TB, name string, c compress.Compression) string {
	if p, ok := rewriteFiles.Load(name); ok {
		return p.(string)
	}
	dir := os.Getenv("PQCODEC_REWRITE_DIR")
	if dir == "" {
		dir = os.TempDir()
	}
	mb := rewriteMB()
	path := filepath.Join(dir, fmt.Sprintf("pqcodec-rewrite-%dmb-%s.parquet", mb, name))
	if _, err := os.Stat(path); err != nil {
		// About 60 bytes per row once compressed.
		rows := mb << 20 / 60
		tmp := path + ".tmp"
		f, err := os.Create(tmp)
		require.NoError(tb, err)
		props := parquet.NewWriterProperties(parquet.WithCompression(c), parquet.WithMaxRowGroupLength(rewriteRowGroupRows),
			parquet.WithDictionaryFor("token", false), parquet.WithDictionaryFor("note", false))
		w, err := pqarrow.NewFileWriter(rewriteSchema, f, props, pqarrow.DefaultWriterProps())
		require.NoError(tb, err)
		rng := rand.New(rand.NewPCG(1, 2))
		for start := 0; start < rows; start += 64 << 10 {
			rec := rewriteBatch(rng, start, min(64<<10, rows-start))
			require.NoError(tb, w.WriteBuffered(rec))
			rec.Release()
		}
		require.NoError(tb, w.Close())
		require.NoError(tb, os.Rename(tmp, path))
	}
	rewriteFiles.Store(name, path)
	return path
}

var rewriteSources = []struct {
	name  string
	codec compress.Compression
}{
	{"SNAPPY", compress.Codecs.Snappy},
	{"GZIP", compress.Codecs.Gzip},
	{"LZ4_RAW", compress.Codecs.Lz4Raw},
}

func openSource(tb testing.TB, path string) (*os.File, int64) {
	f, err := os.Open(path)
	require.NoError(tb, err)
	st, err := f.Stat()
	require.NoError(tb, err)
	return f, st.Size()
}

func pqcodecRewrite(workers int) func(io.Writer, *os.File, int64) error {
	return func(w io.Writer, f *os.File, size int64) error {
		_, err := recompress.Rewrite(w, f, size, recompress.WithWorkers(workers),
			recompress.WithCodec(recompress.Target{Codec: codecfactory.Zstd, Level: 3}))
		return err
	}
}

func arrowRewrite(w io.Writer, f *os.File, size int64) error {
	// A SectionReader: closing the arrow-go reader closes its source.
	pr, err := file.NewParquetReader(io.NewSectionReader(f, 0, size))
	if err != nil {
		return err
	}
	defer pr.Close()
	fr, err := pqarrow.NewFileReader(pr, pqarrow.ArrowReadProperties{BatchSize: 64 << 10}, memory.DefaultAllocator)
	if err != nil {
		return err
	}
	sc, err := fr.Schema()
	if err != nil {
		return err
	}
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Zstd), parquet.WithCompressionLevel(3),
		parquet.WithMaxRowGroupLength(rewriteRowGroupRows))
	fw, err := pqarrow.NewFileWriter(sc, w, props, pqarrow.DefaultWriterProps())
	if err != nil {
		return err
	}
	for rg := range pr.NumRowGroups() {
		rr, err := fr.GetRecordReader(context.Background(), nil, []int{rg})
		if err != nil {
			return err
		}
		fw.NewBufferedRowGroup()
		for rr.Next() {
			if err := fw.WriteBuffered(rr.Record()); err != nil {
				return err
			}
		}
		err = rr.Err()
		rr.Release()
		if err != nil && err != io.EOF {
			return err
		}
	}
	return fw.Close()
}

func parquetGoRewrite(w io.Writer, f *os.File, size int64) error {
	pf, err := pqgo.OpenFile(f, size)
	if err != nil {
		return err
	}
	pw := pqgo.NewWriter(w, pf.Schema(), pqgo.Compression(&pqgozstd.Codec{Level: pqgozstd.SpeedDefault}))
	for _, rg := range pf.RowGroups() {
		rows := rg.Rows()
		_, err := pqgo.CopyRows(pw, rows)
		rows.Close()
		if err != nil {
			return err
		}
		if err := pw.Flush(); err != nil {
			return err
		}
	}
	return pw.Close()
}

// countingDiscard counts bytes and drops them, as a fast disk would.
type countingDiscard struct{ n int64 }

func (c *countingDiscard) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

var rewriteImpls = []struct {
	name string
	run  func(io.Writer, *os.File, int64) error
}{
	{"pqcodec-1w", pqcodecRewrite(1)},
	{"pqcodec-2w", pqcodecRewrite(2)},
	{"arrowgo", arrowRewrite},
	{"parquetgo", parquetGoRewrite},
}

// BenchmarkRewrite recompresses the generated files to ZSTD. It runs only
// with PQCODEC_REWRITE_BENCH set: each operation rewrites a 200 MB file.
func BenchmarkRewrite(b *testing.B) {
	if os.Getenv("PQCODEC_REWRITE_BENCH") == "" {
		b.Skip("set PQCODEC_REWRITE_BENCH=1 (and PQCODEC_REWRITE_MB, default 200) to run")
	}
	for _, src := range rewriteSources {
		path := rewriteFile(b, src.name, src.codec)
		for _, impl := range rewriteImpls {
			b.Run(fmt.Sprintf("src=%s/impl=%s", src.name, impl.name), func(b *testing.B) {
				f, size := openSource(b, path)
				defer f.Close()
				var out countingDiscard
				// Checked once before timing. A peer that cannot rewrite
				// the file is skipped with its error (parquet-go misreads
				// LZ4_RAW pages that do not compress; see cgo_test).
				if err := impl.run(&out, f, size); err != nil {
					if strings.HasPrefix(impl.name, "pqcodec") {
						b.Fatal(err)
					}
					b.Skipf("%s cannot rewrite %s: %v", impl.name, src.name, err)
				}
				b.SetBytes(size)
				b.ReportAllocs()
				b.ResetTimer()
				cpu0 := benchdata.CPUTime()
				for range b.N {
					if err := impl.run(&countingDiscard{}, f, size); err != nil {
						b.Fatal(err)
					}
				}
				// MB per CPU second of the whole process (GC included):
				// on a shared machine it moves less than wall-clock MB/s.
				if cpu := benchdata.CPUTime() - cpu0; cpu > 0 {
					b.ReportMetric(float64(size)*float64(b.N)/1e6/cpu.Seconds(), "MB/cpu-s")
				}
				b.ReportMetric(float64(out.n)/float64(size), "out/in")
			})
		}
	}
}

// TestRewriteScaling prints the time of recompress.Rewrite with 1 and 2
// workers on each generated file, interleaved, with the load average. Each
// pass also times two independent 1-worker rewrites of the file running at
// once: 2 x (1-worker time) / (pair time) is the most a 2-core machine gives
// two copies of the same work that share nothing but the hardware (memory
// bandwidth, caches), the ceiling for the 2-worker ratio. It runs only with
// PQCODEC_REWRITE_BENCH set.
func TestRewriteScaling(t *testing.T) {
	if os.Getenv("PQCODEC_REWRITE_BENCH") == "" {
		t.Skip("set PQCODEC_REWRITE_BENCH=1 to run")
	}
	for _, src := range rewriteSources {
		path := rewriteFile(t, src.name, src.codec)
		f, size := openSource(t, path)
		best := map[string]time.Duration{}
		for pass := range 5 {
			for _, run := range []struct {
				name    string
				workers int
				copies  int
			}{{"1 worker", 1, 1}, {"2 workers", 2, 1}, {"2 x 1 worker", 1, 2}} {
				cpu0 := benchdata.CPUTime()
				start := time.Now()
				errs := make(chan error, run.copies)
				for range run.copies {
					go func() { errs <- pqcodecRewrite(run.workers)(&countingDiscard{}, f, size) }()
				}
				for range run.copies {
					require.NoError(t, <-errs)
				}
				d := time.Since(start)
				cpu := benchdata.CPUTime() - cpu0
				if best[run.name] == 0 || d < best[run.name] {
					best[run.name] = d
				}
				load, _ := os.ReadFile("/proc/loadavg")
				t.Logf("%s pass %d: %s %v (%.1f MB/s), CPU %v (%.2f CPUs busy), load %s", src.name, pass, run.name,
					d.Round(time.Millisecond), float64(run.copies*int(size))/1e6/d.Seconds(), cpu.Round(time.Millisecond),
					cpu.Seconds()/d.Seconds(), string(load[:14]))
			}
		}
		f.Close()
		one, two, pair := best["1 worker"], best["2 workers"], best["2 x 1 worker"]
		t.Logf("%s: %.1f MB, best 1 worker %v (%.1f MB/s), 2 workers %v (%.1f MB/s): %.2fx; "+
			"two 1-worker rewrites at once %v: ceiling %.2fx", src.name, float64(size)/1e6,
			one.Round(time.Millisecond), float64(size)/1e6/one.Seconds(),
			two.Round(time.Millisecond), float64(size)/1e6/two.Seconds(), one.Seconds()/two.Seconds(),
			pair.Round(time.Millisecond), 2*one.Seconds()/pair.Seconds())
	}
}
