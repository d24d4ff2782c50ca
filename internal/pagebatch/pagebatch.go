// Package pagebatch turns the pages a column.Reader returns, which may end
// inside a row (a data page v1 may), into batches of whole rows, as
// writer.Writer.Write takes them. Package merge and package reencode write
// decoded pages again through it.
package pagebatch

import (
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/internal/enctable"
)

// Batcher holds the levels and values of the row a page left unfinished.
// The zero Batcher is not usable: set MaxDef to the column's maximum
// definition level.
type Batcher struct {
	MaxDef   int
	def, rep []int16
	values   column.Values
}

// Write is where a Batcher sends batches of whole rows.
type Write func(v *column.Values, def, rep []int16) error

// Add passes p on to write, holding back the levels and values of its last
// row when p has repetition levels (the next page may continue it).
func (b *Batcher) Add(p *column.Page, write Write) error {
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
	if len(b.rep) > 0 || last > 0 {
		b.add(p, 0, last)
		if err := b.Flush(write); err != nil {
			return err
		}
	}
	b.add(p, last, len(p.RepLevels))
	return nil
}

// Flush writes the pending row, if any: at the end of a column chunk.
func (b *Batcher) Flush(write Write) error {
	if len(b.rep) == 0 {
		return nil
	}
	err := write(&b.values, b.def, b.rep)
	b.def, b.rep = b.def[:0], b.rep[:0]
	b.values.Reset(b.values.Type, b.values.TypeLength)
	return err
}

// add appends the levels [from, to) of p, and the values they hold, to the
// pending row.
func (b *Batcher) add(p *column.Page, from, to int) {
	if len(b.rep) == 0 {
		b.values.Reset(p.Values.Type, p.Values.TypeLength)
	}
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
	b.rep = append(b.rep, p.RepLevels[from:to]...)
	if len(p.DefLevels) > 0 {
		b.def = append(b.def, p.DefLevels[from:to]...)
	}
	(*enctable.Values)(&b.values).AppendRange((*enctable.Values)(&p.Values), v0, v1)
}
