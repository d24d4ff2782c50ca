// Package pagebatch turns the pages a column.Reader returns, which may end
// inside a row (a data page v1 may), into batches of whole rows, as
// writer.Writer.Write takes them. Package merge and package reencode write
// decoded pages again through it.
package pagebatch

import (
	"context"
	"io"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/internal/enctable"
)

// Batcher holds the levels and values of the row a page left unfinished.
// The zero Batcher is not usable: set MaxDef to the column's maximum
// definition level.
type Batcher struct {
	MaxDef int
	// MinLevels, when positive, gathers the rows of consecutive pages into
	// batches of at least MinLevels levels (values, for a required column
	// that is not repeated), but for the last of a chunk: fewer and larger
	// writes where pages are small. 0 passes each page on as it comes.
	MinLevels int
	def, rep  []int16
	values    column.Values
	levels    int // held back
}

// Write is where a Batcher sends batches of whole rows.
type Write func(v *column.Values, def, rep []int16) error

// Add passes p on to write, holding back the levels and values of its last
// row when p has repetition levels (the next page may continue it).
func (b *Batcher) Add(p *column.Page, write Write) error {
	if b.MinLevels > 0 {
		return b.gather(p, write)
	}
	if len(p.RepLevels) == 0 {
		return write(&p.Values, p.DefLevels, p.RepLevels)
	}
	last := -1
	for i := len(p.RepLevels) - 1; i >= 0; i-- {
		if p.RepLevels[i] == 0 {
			last = i
			break
		}
	}
	if last < 0 { // the page continues the pending row
		b.add(p, 0, len(p.RepLevels))
		return nil
	}
	if b.levels > 0 || last > 0 {
		b.add(p, 0, last)
		if err := b.Flush(write); err != nil {
			return err
		}
	}
	b.add(p, last, len(p.RepLevels))
	return nil
}

// gather is Add under MinLevels: the whole rows of p join those held back,
// which are written once they reach MinLevels; a page of MinLevels levels
// or more that ends a row, with nothing held back, is written as it is.
func (b *Batcher) gather(p *column.Page, write Write) error {
	if p.NumLevels == 0 {
		return nil // and it has no repetition levels to tell where rows start
	}
	last := p.NumLevels // where the row p may leave unfinished starts
	if len(p.RepLevels) > 0 {
		last = -1
		for i := len(p.RepLevels) - 1; i >= 0; i-- {
			if p.RepLevels[i] == 0 {
				last = i
				break
			}
		}
		if last < 0 { // the page continues the pending row
			b.add(p, 0, p.NumLevels)
			return nil
		}
	}
	if b.levels == 0 && last == p.NumLevels && p.NumLevels >= b.MinLevels {
		return write(&p.Values, p.DefLevels, p.RepLevels)
	}
	b.add(p, 0, last)
	if b.levels >= b.MinLevels {
		if err := b.Flush(write); err != nil {
			return err
		}
	}
	b.add(p, last, p.NumLevels)
	return nil
}

// Copy passes every page of cr, read into p with ctx, on to write and then
// flushes: the rows of a column chunk written again, as merge and reencode
// do. An error of cr is returned as readErr, as cr gave it, and one of
// write as writeErr: the callers tell damaged input from a failed write.
func (b *Batcher) Copy(ctx context.Context, cr *column.Reader, p *column.Page, write Write) (readErr, writeErr error) {
	for {
		if err := cr.ReadPageContext(ctx, p); err != nil {
			if err == io.EOF {
				break
			}
			return err, nil
		}
		if err := b.Add(p, write); err != nil {
			return nil, err
		}
	}
	return nil, b.Flush(write)
}

// Flush writes the rows held back, if any: at the end of a column chunk.
func (b *Batcher) Flush(write Write) error {
	if b.levels == 0 {
		return nil
	}
	err := write(&b.values, b.def, b.rep)
	b.def, b.rep = b.def[:0], b.rep[:0]
	b.values.Reset(b.values.Type, b.values.TypeLength)
	b.levels = 0
	return err
}

// add appends the levels [from, to) of p, and the values they hold, to the
// pending row.
func (b *Batcher) add(p *column.Page, from, to int) {
	if from == to {
		return
	}
	if b.levels == 0 {
		b.values.Reset(p.Values.Type, p.Values.TypeLength)
	}
	b.levels += to - from
	// The values before level from and up to level to.
	v0, v1 := from, to
	if len(p.DefLevels) > 0 {
		v0, v1 = 0, 0
		for i, d := range p.DefLevels[:to] {
			if int(d) == b.MaxDef {
				if i < from {
					v0++
				}
				v1++
			}
		}
	}
	if len(p.RepLevels) > 0 {
		b.rep = append(b.rep, p.RepLevels[from:to]...)
	}
	if len(p.DefLevels) > 0 {
		b.def = append(b.def, p.DefLevels[from:to]...)
	}
	(*enctable.Values)(&b.values).AppendRange((*enctable.Values)(&p.Values), v0, v1)
}
