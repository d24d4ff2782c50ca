package writer

import (
	"sync"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/enctable"
)

// This file holds what WithWorkers adds: a column's batches, copied by
// Write, are cut into pages and encoded on a goroutine while the caller
// writes the next column, and a page that is not dictionary-encoded is
// compressed on a goroutine of its own while the column's next page fills
// (whether a dictionary-encoded page keeps the dictionary for the next one
// depends on its compressed size, so it is compressed in turn). At most
// cfg.workers such goroutines run at once: one waiting for another gives
// up its token meanwhile (reapUntil). A column's batches run in the order
// written, one at a time, and its pages are appended in the order cut
// (reap), so each chunk is built exactly as without workers; the row group
// is flushed where it would be without workers (budget.go's endRound
// decides on bounds of the pages still in compression, or waits for
// them): the file is the same, byte for byte, for any number of workers.

// asyncState is a column's in-flight batch: the copy it works on and the
// channel its goroutine reports on.
type asyncState struct {
	busy     bool
	done     chan error // capacity 1: the goroutine never blocks on it
	v        enctable.Values
	def, rep []int16
}

// wait waits for the column's batch in flight, if any, and returns its
// error.
func (c *chunkWriter) wait() error {
	if !c.async.busy {
		return nil
	}
	c.async.busy = false
	return <-c.async.done
}

// stage copies a checked batch into the column's async buffers.
func (c *chunkWriter) stage(v *enctable.Values, def, rep []int16) {
	a := &c.async
	a.def = append(a.def[:0], def...)
	a.rep = append(a.rep[:0], rep...)
	d := &a.v
	d.Type, d.TypeLength = v.Type, v.TypeLength
	switch v.Type {
	case format.Boolean:
		d.Booleans = append(d.Booleans[:0], v.Booleans...)
	case format.Int32:
		d.Int32s = append(d.Int32s[:0], v.Int32s...)
	case format.Int64:
		d.Int64s = append(d.Int64s[:0], v.Int64s...)
	case format.Int96:
		d.Int96s = append(d.Int96s[:0], v.Int96s...)
	case format.Float:
		d.Floats = append(d.Floats[:0], v.Floats...)
	case format.Double:
		d.Doubles = append(d.Doubles[:0], v.Doubles...)
	case format.FixedLenByteArray:
		d.Bytes = append(d.Bytes[:0], v.Bytes...)
	case format.ByteArray:
		d.Bytes, d.Offsets = d.Bytes[:0], d.Offsets[:0]
		if len(v.Offsets) == 0 {
			return
		}
		lo, hi := v.Offsets[0], v.Offsets[len(v.Offsets)-1]
		d.Bytes = append(d.Bytes, v.Bytes[lo:hi]...)
		for _, o := range v.Offsets {
			d.Offsets = append(d.Offsets, o-lo)
		}
	}
}

// startWrite writes a checked batch of n levels on a goroutine, or here
// when the column fills its pages inline.
func (w *Writer) startWrite(c *chunkWriter, v *enctable.Values, def, rep []int16, n int) error {
	if err := c.wait(); err != nil {
		return err
	}
	if c.fillsInline() {
		w.sem <- struct{}{} // a worker's turn, as on a goroutine of its own
		c.holding = true
		err := c.write(v, def, rep, n)
		c.holding = false
		<-w.sem
		return err
	}
	c.stage(v, def, rep)
	c.async.busy = true
	go func() {
		w.sem <- struct{}{}
		c.holding = true
		err := c.write(&c.async.v, c.async.def, c.async.rep, n)
		c.holding = false
		<-w.sem
		c.async.done <- err
	}()
	return nil
}

// fillsInline reports whether the column's next batch is written on the
// caller's goroutine rather than copied and written on a worker: when the
// column writes PLAIN values without a dictionary (it fell back, or has
// none) and no bloom filter, what the batch costs besides the compression
// of its pages, which still runs on the workers, is about the copy that
// handing it to a worker would take (its values are copied into the page,
// and the page into its PLAIN encoding): writing it here spares that copy
// and a goroutine. The caller takes a worker's turn meanwhile, so that at
// most n goroutines work at once still. The column holds no batch in
// flight then (c.wait).
func (c *chunkWriter) fillsInline() bool {
	return !c.dictActive && c.row.Encoding == format.Plain && c.bloom == nil
}

// pageJob is a data page compressed on a worker: its encoded bytes, the
// buffer it is compressed into and, once done reports, the compressed
// bytes.
type pageJob struct {
	page       describedPage
	body, comp []byte
	levelsEnd  int
	out        []byte
	done       chan error // capacity 1: the goroutine never blocks on it
	// hi is the most bytes the page can take in the chunk once appended:
	// its compressed bytes at most, a header with its statistics, the
	// modules' overhead when encrypted.
	hi int64
}

// jobPool holds the page jobs not in use, of every column of every Writer
// in the process: a page job's two buffers are as large as the pages of
// the column that used it last, which a Writer of one file would allocate
// again for each file, and a column's own free list would keep alive for
// as long as the Writer, however few pages are in compression at once.
// Through the pool, the jobs in use are about as many as the pages in
// compression at once in the process, and the collector empties the pool
// as any sync.Pool. A buffer over maxPooledPage (a page far larger than
// the default) is left to the collector rather than kept in the pool.
const maxPooledPage = 4 << 20

var jobPool = sync.Pool{New: func() any { return &pageJob{done: make(chan error, 1)} }}

// maxPageHeader is more than a page header takes besides the statistics'
// values, encrypted or not.
const maxPageHeader = 1 << 10

// freeJob returns a pageJob to compress a page on, waiting for the
// column's oldest page in compression when it has as many as there are
// workers.
func (c *chunkWriter) freeJob() (*pageJob, error) {
	if err := c.reapUntil(cap(c.sem) - 1); err != nil {
		return nil, err
	}
	return jobPool.Get().(*pageJob), nil
}

// startCompress compresses j on a worker; reap appends it.
func (c *chunkWriter) startCompress(j *pageJob) {
	stats := int64(0)
	if l := &j.page.loc; l.hasMinMax {
		stats = 2 * int64(l.end-l.minStart) // Min and MinValue, Max and MaxValue
	}
	j.hi = int64(len(j.body)) + stats + maxPageHeader
	if c.compresses(len(j.body), j.levelsEnd) {
		from := 0 // v2 compresses the values only
		if c.cfg.version == 2 {
			from = j.levelsEnd
		}
		j.hi += int64(c.codecs.CompressBound(c.cfg.codec, len(j.body)-from) - (len(j.body) - from))
	}
	c.pending = append(c.pending, j)
	sem := c.sem
	go func() {
		sem <- struct{}{}
		out, _, err := c.compressPage(&j.comp, j.body, j.levelsEnd)
		<-sem
		j.out = out
		j.done <- err
	}()
}

// reapReady appends the column's pages whose compression is done, in
// order, up to the first still running.
func (c *chunkWriter) reapReady() error {
	for len(c.pending) > 0 {
		select {
		case err := <-c.pending[0].done:
			if err := c.appendJob(err); err != nil {
				return err
			}
		default:
			return nil
		}
	}
	return nil
}

// reapUntil appends the column's pages in compression, in order, waiting
// for them until at most n are left. A worker waiting gives up its turn
// meanwhile, so that the compressions it waits for can run.
func (c *chunkWriter) reapUntil(n int) error {
	for len(c.pending) > max(n, 0) {
		var err error
		select {
		case err = <-c.pending[0].done:
		default:
			if c.holding {
				<-c.sem
			}
			err = <-c.pending[0].done
			if c.holding {
				c.sem <- struct{}{}
			}
		}
		if err := c.appendJob(err); err != nil {
			return err
		}
	}
	return nil
}

// appendJob appends the column's oldest page in compression, done with
// err, and puts its job back in the pool.
func (c *chunkWriter) appendJob(err error) error {
	j := c.pending[0]
	copy(c.pending, c.pending[1:])
	c.pending = c.pending[:len(c.pending)-1]
	if err == nil {
		err = c.appendOut(&j.page, j.out) // copies j.out
	}
	j.out, j.page = nil, describedPage{} // nothing of this column kept by the pool
	if cap(j.body) > maxPooledPage {
		j.body = nil
	}
	if cap(j.comp) > maxPooledPage {
		j.comp = nil
	}
	jobPool.Put(j)
	return err
}

// pagesBound returns the least and the most bytes the chunk's first m
// pages take, exact when they are all appended.
func (c *chunkWriter) pagesBound(m int) (lo, hi int64) {
	if k := min(m, len(c.locs)); k > 0 {
		l := c.locs[k-1]
		lo = l.offset + int64(l.size)
	}
	hi = lo
	for _, j := range c.pending[:max(m-len(c.locs), 0)] {
		hi += j.hi
	}
	return lo, hi
}

// numPages returns the number of data pages of the chunk, appended or in
// compression.
func (c *chunkWriter) numPages() int { return len(c.locs) + len(c.pending) }

// waitAll waits for every column's batch in flight and returns the first
// error, in column order.
func (w *Writer) waitAll() error {
	var first error
	for _, c := range w.cols {
		if err := c.wait(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// finishAll finishes every column's chunk (its last page and dictionary
// page), on the workers when there are any.
func (w *Writer) finishAll() error {
	if w.sem == nil {
		for _, c := range w.cols {
			if err := c.finish(); err != nil {
				return err
			}
		}
		return nil
	}
	for _, c := range w.cols {
		c.async.busy = true
		go func() {
			w.sem <- struct{}{}
			c.holding = true
			err := c.finish()
			c.holding = false
			<-w.sem
			c.async.done <- err
		}()
	}
	return w.waitAll()
}

// batchRows returns the number of rows a checked batch of n levels holds.
func (c *chunkWriter) batchRows(rep []int16, n int) int64 {
	if c.maxRep == 0 {
		return int64(n)
	}
	rows := int64(0)
	for _, r := range rep[:n] {
		if r == 0 {
			rows++
		}
	}
	return rows
}
