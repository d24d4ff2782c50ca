package writer

import (
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/enctable"
)

// This file holds what WithMaxMemory adds: the bytes every column
// buffers (see chunkWriter.memory) are counted where every column holds
// the same rows, at the end of a round of batches, and the Writer flushes
// the row group early there. Inside a round of batches the count may pass
// the budget: the batches are the caller's memory already, and the row
// group is flushed at the end of the round, the first place it can be
// cut. Under WithWorkers, pages still in compression at the end of a
// round are counted once appended: until then bounds of the count decide
// when they can (Writer.endRound), so that the workers go on compressing
// while the caller writes the next round.

// budget is a Writer's count of buffered bytes at the ends of rounds.
type budget struct {
	limit int64 // 0: no bound
	// At the last end of a round whose count is settled: the count then,
	// and the largest growth of the count over one round of batches.
	lastAligned int64
	maxRound    int64
	// Per end of a round not settled yet (pages still in compression),
	// oldest first, per column: what the column held besides its data
	// pages and the number of those pages (WithMaxMemory only).
	recs []alignedRec
}

type alignedRec struct {
	rest  int64
	pages int
}

// memory returns the bytes the chunk buffers, as WithMaxMemory counts them:
// its compressed pages, its current page's levels (2 bytes each) and
// values (the PLAIN size, the size they are held at; 4 bytes per index
// while dictionary-encoded), and its dictionary (the PLAIN size of its
// values plus 8 bytes per value for its hash table).
func (c *chunkWriter) memory() int64 {
	n := c.pages.len() + 2*int64(len(c.def)+len(c.rep))
	if c.dictActive {
		n += 4 * int64(c.dict.NumIndices())
	} else {
		n += int64(c.pageBytes)
	}
	if c.dict != nil && (c.dictActive || c.dictUsed) {
		n += int64(c.dict.DictSize()) + 8*int64(c.dict.Len())
	}
	return n
}

// endRound decides, at the end of a round of batches (every column's work
// done and rows rows in each column), whether the row group is flushed:
// when a round as large as the largest so far would take the count past
// the budget, or the row group reached its size or row count. Pages still
// in compression are bounded by pageJob.hi, and the columns' pages waited
// for only when the bounds cannot decide.
func (w *Writer) endRound(rows int64) (bool, error) {
	b := &w.budget
	var sizeHi int64
	for _, c := range w.cols {
		if err := c.reapReady(); err != nil {
			return false, err
		}
		_, hi := c.pagesBound(c.numPages())
		sizeHi += c.buffered() - c.pages.len() + hi
	}
	if b.limit > 0 {
		for _, c := range w.cols {
			b.recs = append(b.recs, alignedRec{c.memory() - c.pages.len(), c.numPages()})
		}
		w.settleAligned()
	}
	if rows < w.cfg.rowGroupRows && sizeHi < w.cfg.rowGroupSize {
		if b.limit <= 0 {
			return false, nil
		}
		if last, round := w.budgetBound(); last+round < b.limit {
			return false, nil
		}
	}
	if err := w.settle(); err != nil {
		return false, err
	}
	var size int64
	for _, c := range w.cols {
		size += c.buffered()
	}
	over := b.limit > 0 && b.lastAligned+b.maxRound >= b.limit
	return over || rows >= w.cfg.rowGroupRows || size >= w.cfg.rowGroupSize, nil
}

// settle waits for every column's work, its batch in flight and its pages
// in compression, and settles the budget's count.
func (w *Writer) settle() error {
	if err := w.waitAll(); err != nil {
		return err
	}
	for _, c := range w.cols {
		if err := c.reapUntil(0); err != nil {
			return err
		}
	}
	w.settleAligned()
	return nil
}

// alignedBound returns the least and the most the count was at the i-th
// end of a round not settled, and whether they are the same.
func (w *Writer) alignedBound(i int) (lo, hi int64, exact bool) {
	n := len(w.cols)
	exact = true
	for k, r := range w.budget.recs[i*n : (i+1)*n] {
		c := w.cols[k]
		l, h := c.pagesBound(r.pages)
		lo, hi = lo+r.rest+l, hi+r.rest+h
		exact = exact && r.pages <= len(c.locs)
	}
	return lo, hi, exact
}

// settleAligned takes the ends of rounds whose pages are all appended, in
// order, into the last count and the largest round.
func (w *Writer) settleAligned() {
	b := &w.budget
	n, i := len(w.cols), 0
	for ; i*n < len(b.recs); i++ {
		total, _, exact := w.alignedBound(i)
		if !exact {
			break
		}
		b.maxRound = max(b.maxRound, total-b.lastAligned)
		b.lastAligned = total
	}
	b.recs = b.recs[:copy(b.recs, b.recs[i*n:])]
}

// budgetBound returns the most the count was at the last end of a round,
// and the most the largest round was then.
func (w *Writer) budgetBound() (last, round int64) {
	b := &w.budget
	lastLo, last, round := b.lastAligned, b.lastAligned, b.maxRound
	for i := 0; i*len(w.cols) < len(b.recs); i++ {
		lo, hi, _ := w.alignedBound(i)
		round = max(round, hi-lastLo)
		lastLo, last = lo, hi
	}
	return last, round
}

// afterFlush updates the count once the flushed chunks are reset.
func (w *Writer) afterFlush() {
	var total int64
	for _, c := range w.cols {
		total += c.memory()
	}
	w.budget.lastAligned = total
}

// batchMemory returns an upper estimate of what writing a checked batch
// adds to the count: its levels and its values at their PLAIN size.
func (c *chunkWriter) batchMemory(v *enctable.Values, def, rep []int16) int64 {
	n := 2 * int64(len(def)+len(rep))
	if c.typ == format.ByteArray {
		if len(v.Offsets) > 0 {
			n += int64(v.Offsets[len(v.Offsets)-1]-v.Offsets[0]) + 4*int64(len(v.Offsets)-1)
		}
		return n
	}
	return n + int64(v.Len())*int64(c.valueSize())
}

// flushBefore flushes the row group before a batch of column c, when every
// column holds the same rows and the batch would take the count past the
// budget: a Writer of one column, or a round whose first batch is larger
// than the rounds before, then never fails where a row group could be cut.
func (w *Writer) flushBefore(c *chunkWriter, v *enctable.Values, def, rep []int16) error {
	b := &w.budget
	if b.limit <= 0 || c.queued == 0 {
		return nil
	}
	for _, o := range w.cols {
		if o.queued != c.queued {
			return nil
		}
	}
	batch := c.batchMemory(v, def, rep)
	if last, _ := w.budgetBound(); last+batch <= b.limit {
		return nil
	}
	if err := w.settle(); err != nil {
		return err
	}
	if b.lastAligned+batch <= b.limit {
		return nil
	}
	return w.flush()
}

// trimPages lets go of the buffer of compressed pages of a chunk just
// written when it is more than twice what the chunk needed (and over 1
// MiB), so that a column whose share of the row group shrinks does not
// keep the capacity of its largest chunk.
func (c *chunkWriter) trimPages() {
	if n := c.pages.capacity(); n > 1<<20 && n > 2*c.pages.len() {
		c.pages = pageBuf{}
	}
}
