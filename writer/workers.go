package writer

import (
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/enctable"
)

// This file holds what WithWorkers adds: a column's batches, copied by
// Write, are cut into pages, encoded and compressed on a goroutine while
// the caller writes the next column; at most cfg.workers such goroutines
// run at once. A column's batches run in the order written, one at a
// time, so each chunk is built exactly as without workers, and the row
// group is flushed only when every column's work is done: the file is the
// same, byte for byte, for any number of workers.

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

// startWrite writes a checked batch of n levels on a goroutine.
func (w *Writer) startWrite(c *chunkWriter, v *enctable.Values, def, rep []int16, n int) error {
	if err := c.wait(); err != nil {
		return err
	}
	c.stage(v, def, rep)
	c.async.busy = true
	go func() {
		w.sem <- struct{}{}
		err := c.write(&c.async.v, c.async.def, c.async.rep, n)
		<-w.sem
		c.async.done <- err
	}()
	return nil
}

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
			err := c.finish()
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
