package writer

import (
	"sync/atomic"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/enctable"
)

// This file holds what WithMaxMemory adds: every column counts the bytes it
// buffers (see chunkWriter.memory) into one total per Writer, after each
// step of at most maxStep values, on whichever goroutine runs the column's
// work. The Writer flushes the row group early where it can (every column
// at the same row). Where it cannot (inside a round of batches), the total
// may pass the budget: the batches are the caller's memory already, and
// the row group is flushed at the end of the round, the first place it
// can be cut.

// budget is a Writer's count of buffered bytes, shared by its columns.
type budget struct {
	limit int64 // 0: no bound
	total atomic.Int64
	// At the last point where every column held the same rows (Writer
	// only): the total then, and the largest growth of the total over
	// one round of batches between two such points.
	lastAligned int64
	maxRound    int64
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

// account brings the chunk's share of the Writer's total up to date.
func (c *chunkWriter) account() {
	if c.budget == nil {
		return
	}
	m := c.memory()
	c.budget.total.Add(m - c.counted)
	c.counted = m
}

// overBudget is called where every column holds the same rows, after
// their work is done: it records the growth of the round of batches that
// led there and reports whether a round as large as the largest so far
// would pass the budget, so that the row group must be flushed now.
func (w *Writer) overBudget() bool {
	b := &w.budget
	total := b.total.Load()
	b.maxRound = max(b.maxRound, total-b.lastAligned)
	b.lastAligned = total
	return b.limit > 0 && total+b.maxRound >= b.limit
}

// afterFlush updates the count once the flushed chunks are reset.
func (w *Writer) afterFlush() {
	for _, c := range w.cols {
		c.account()
	}
	w.budget.lastAligned = w.budget.total.Load()
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
	if b.total.Load()+c.batchMemory(v, def, rep) <= b.limit {
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
