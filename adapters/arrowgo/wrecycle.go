package arrowgo

import (
	"sync"

	"github.com/pqcodec/pqcodec/column"
)

// The level and value buffers of a closed FileWriter's leaves go to the
// next FileWriter's, as package writer recycles its chunk writers' (see
// writer/recycle.go): a service writing many small tables does not grow
// them again for each. Buffers over maxRecycledBytes are left to the
// collector; the pool is emptied by it as any sync.Pool is.
const maxRecycledBytes = 1 << 20

type leafBuffers struct {
	def, rep []int16
	runs     []int
	buf      column.Values
}

var leafPool sync.Pool // of *leafBuffers

// reuse gives l the buffers of a closed FileWriter's leaf, if any.
func (l *leafWriter) reuse() {
	if b, _ := leafPool.Get().(*leafBuffers); b != nil {
		l.def, l.rep, l.runs, l.buf = b.def, b.rep, b.runs, b.buf
	}
}

// recycle hands l's own buffers to the pool; l must not be used after.
// l.v may alias the caller's Arrow buffers and is only dropped.
func (l *leafWriter) recycle() {
	b := &l.buf
	leafPool.Put(&leafBuffers{def: smallOf(l.def, 2), rep: smallOf(l.rep, 2), runs: smallOf(l.runs, 8),
		buf: column.Values{Booleans: smallOf(b.Booleans, 1), Int32s: smallOf(b.Int32s, 4), Int64s: smallOf(b.Int64s, 8),
			Floats: smallOf(b.Floats, 4), Doubles: smallOf(b.Doubles, 8), Bytes: smallOf(b.Bytes, 1),
			Offsets: smallOf(b.Offsets, 4)}})
	l.def, l.rep, l.runs, l.buf, l.v = nil, nil, nil, column.Values{}, column.Values{}
}

// smallOf returns s emptied, or nil when its size-byte elements take more
// than maxRecycledBytes.
func smallOf[T any](s []T, size int) []T {
	if cap(s)*size > maxRecycledBytes {
		return nil
	}
	return s[:0]
}
