package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/pages"
)

func setupBench(fs *flag.FlagSet) func([]string, io.Writer, io.Writer) error {
	count := fs.Int("count", 5, "read every column chunk `N` times")
	maxMemory := memoryFlag(fs)
	workers := fs.Int("workers", 0, "also time decoding the whole file with every row group's chunks read by `N` goroutines, and compare with one")
	return func(positional []string, stdout, stderr io.Writer) error {
		path, err := oneFile(positional)
		if err != nil {
			return err
		}
		if *count < 1 {
			return usagef("--count must be at least 1, got %d", *count)
		}
		if *workers < 0 {
			return usagef("--workers must not be negative, got %d", *workers)
		}
		f, fh, size, err := openFile(path, column.WithMaxMemory(int64(*maxMemory)))
		if err != nil {
			return err
		}
		defer fh.Close()
		codecs, err := codecfactory.New()
		if err != nil {
			return err
		}
		b := &bencher{file: f, r: fh, size: size, codecs: codecs, count: *count, maxMemory: int64(*maxMemory),
			progress: newProgress(stderr)}
		cols, err := b.run()
		var whole wholeFile
		if err == nil && *workers > 0 {
			whole, err = benchWhole(f, *count, *workers, b.progress)
		}
		b.progress.done()
		if err != nil {
			return &fileError{path, err}
		}
		if err := writeBench(stdout, path, f, *count, cols); err != nil || *workers == 0 {
			return err
		}
		return writeWhole(stdout, whole)
	}
}

// benchColumn is what bench measured for one leaf column, summed over its
// chunks; times are those of the fastest pass over each chunk.
type benchColumn struct {
	path, typ, codec string
	bytes            int64 // uncompressed page bytes per pass
	values           int64 // levels per pass
	decompress, full time.Duration
}

type bencher struct {
	file      *column.File
	r         io.ReaderAt
	size      int64
	codecs    *codecfactory.Factory
	count     int
	maxMemory int64 // bounds the decompression pass as it bounds the reader
	progress  *progress

	chunk, buf []byte
	pages      pages.Pipeline // the column reader's walk, split and decompression
	rd         column.Reader
	page       column.Page
}

// run measures every column. Errors are *column.PageError.
func (b *bencher) run() ([]benchColumn, error) {
	md := b.file.MetaData()
	leaves := b.file.Schema().Leaves()
	cols := make([]benchColumn, len(leaves))
	for i, leaf := range leaves {
		c := &cols[i]
		c.path, c.typ = strings.Join(leaf.Path(), "."), leaf.Element.Type.String()
		for g := range md.RowGroups {
			cc := &md.RowGroups[g].Columns[i]
			if cc.MetaData != nil {
				c.codec = addCodec(c.codec, cc.MetaData.Codec.String())
				c.values += cc.MetaData.NumValues
			}
			// The fastest of the passes is kept: it is the one least
			// disturbed by the garbage collector and the scheduler.
			bestD, bestF := time.Duration(-1), time.Duration(-1)
			for pass := range b.count {
				b.progress.update("bench: column %d/%d %s, row group %d/%d, pass %d/%d",
					i+1, len(leaves), c.path, g+1, len(md.RowGroups), pass+1, b.count)
				n, d, err := b.decompressChunk(g, i, c.path)
				if err != nil {
					return nil, err
				}
				if pass == 0 {
					c.bytes += n
				}
				if bestD < 0 || d < bestD {
					bestD = d
				}
				if d, err = b.readChunk(g, i); err != nil {
					return nil, err
				}
				if bestF < 0 || d < bestF {
					bestF = d
				}
			}
			c.decompress += bestD
			c.full += bestF
		}
	}
	return cols, nil
}

func addCodec(list, codec string) string {
	if list == "" {
		return codec
	}
	for _, c := range strings.Split(list, "/") {
		if c == codec {
			return list
		}
	}
	return list + "/" + codec
}

// largeBuffer is the capacity above which bench frees its decompression
// buffer between passes.
const largeBuffer = 64 << 20

// decompressChunk times decompressing the pages of one chunk alone, and
// returns their uncompressed size and the time taken.
func (b *bencher) decompressChunk(g, col int, path string) (int64, time.Duration, error) {
	md := b.file.MetaData()
	cc := &md.RowGroups[g].Columns[col]
	fail := func(page int, err error) error {
		return &column.PageError{Column: path, RowGroup: g, Page: page, Err: err}
	}
	rng, err := md.ColumnChunkRange(cc, b.size)
	if err != nil {
		return 0, 0, fail(-1, err)
	}
	if b.chunk, err = format.ReadColumnChunk(b.chunk, b.r, rng); err != nil {
		return 0, 0, fail(-1, err)
	}
	codec := codecfactory.Codec(cc.MetaData.Codec)
	b.pages.Codecs, b.pages.Codec = b.codecs, codec
	var total int64
	page := 0
	start := time.Now()
	for b.pages.Reset(b.chunk, rng); b.pages.Next(); page++ {
		h := b.pages.Header()
		switch h.Type {
		case format.DictionaryPage, format.DataPage, format.DataPageV2:
		default:
			continue
		}
		// Split as the column reader splits it.
		s, err := pages.Split(h, b.pages.Body())
		if err != nil {
			return 0, 0, fail(page, fmt.Errorf("%w: %w", column.ErrCorrupt, err))
		}
		total += int64(s.UncompressedSize())
		if !s.Compressed || codec == codecfactory.Uncompressed {
			continue // the reader uses such data in place
		}
		n := s.Size
		if need := int64(len(b.chunk)) + int64(n); b.maxMemory > 0 && need > b.maxMemory {
			return 0, 0, fail(page, fmt.Errorf("%w: decompressing the page needs about %d bytes (column chunk %d, page %d), the limit is %d",
				column.ErrLimit, need, len(b.chunk), n, b.maxMemory))
		}
		if _, err = b.pages.Decompress(&b.buf, s); errors.Is(err, pages.ErrCorrupt) {
			return 0, 0, fail(page, fmt.Errorf("%w: %w", column.ErrCorrupt, err))
		} else if err != nil {
			return 0, 0, fail(page, err)
		}
	}
	elapsed := time.Since(start)
	if cap(b.buf) > largeBuffer {
		// Give a large page's buffer back before the reader pass, which
		// needs as much again.
		b.buf = nil
		runtime.GC()
	}
	if err := b.pages.Err(); err != nil {
		return 0, 0, fail(page, err)
	}
	return total, elapsed, nil
}

// readChunk times reading one chunk with a column.Reader: decompressing and
// decoding every page. Reading the chunk's bytes from the file is not timed.
func (b *bencher) readChunk(g, col int) (time.Duration, error) {
	if err := b.file.ResetReader(&b.rd, g, col); err != nil {
		return 0, err
	}
	start := time.Now()
	for {
		err := b.rd.ReadPage(&b.page)
		if errors.Is(err, io.EOF) {
			return time.Since(start), nil
		}
		if err != nil {
			return 0, err
		}
	}
}

func writeBench(out io.Writer, path string, f *column.File, count int, cols []benchColumn) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d row group(s), %d column(s), each chunk read %d times, fastest kept\n", path, f.NumRowGroups(), len(cols), count)
	fmt.Fprintf(&b, "MB/s of uncompressed page bytes; Mvalues/s counts levels (nulls included)\n\n")
	t := table{align: "lllrrrrrrr"}
	t.add("", "", "", "", "", "decompress", "", "decode", "", "")
	t.add("column", "type", "codec", "bytes", "values", "MB/s", "Mvalues/s", "MB/s", "Mvalues/s", "read ms")
	var total benchColumn
	row := func(c *benchColumn) {
		bytes, values := float64(c.bytes), float64(c.values)
		decode := c.full - c.decompress
		t.add(c.path, c.typ, c.codec, fmt.Sprint(c.bytes), fmt.Sprint(c.values),
			rate(bytes/1e6, c.decompress), rate(values/1e6, c.decompress),
			rate(bytes/1e6, decode), rate(values/1e6, decode),
			fmt.Sprintf("%.2f", float64(c.full)/float64(time.Millisecond)))
	}
	for i := range cols {
		c := &cols[i]
		row(c)
		total.bytes += c.bytes
		total.values += c.values
		total.decompress += c.decompress
		total.full += c.full
	}
	total.path = "total"
	row(&total)
	t.write(&b, "")
	_, err := io.WriteString(out, b.String())
	return err
}

// rate formats amount per second of d, or "-" when d is too short to tell.
func rate(amount float64, d time.Duration) string {
	if d <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f", amount/d.Seconds())
}

// progress writes a one-line status to a terminal once a run has taken
// more than a second; it writes nothing to other writers.
type progress struct {
	w     io.Writer
	start time.Time
	last  time.Time
	shown bool
}

func newProgress(w io.Writer) *progress {
	f, ok := w.(*os.File)
	if !ok {
		return &progress{}
	}
	if st, err := f.Stat(); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return &progress{}
	}
	return &progress{w: w, start: time.Now()}
}

func (p *progress) update(format string, args ...any) {
	if p.w == nil {
		return
	}
	now := time.Now()
	if now.Sub(p.start) < time.Second || now.Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.last, p.shown = now, true
	fmt.Fprintf(p.w, "\r\033[K"+format, args...)
}

func (p *progress) done() {
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
