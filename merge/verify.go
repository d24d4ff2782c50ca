package merge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/rows"
)

// Verify checks that out, of outSize bytes, is what [Merge] made of inputs
// as res describes: a footer that reads, the inputs' row counts, every
// copied row group's pages byte for byte the input's, each offset index
// pointing at the pages of its chunk, and every combined row group's rows
// (physical values, as rows.WithRaw reads them) the same as its sources'. A
// difference returns an error wrapping [ErrMismatch].
func Verify(ctx context.Context, out io.ReaderAt, outSize int64, inputs []Input, res *Result) error {
	om, err := format.ReadFooter(out, outSize)
	if err != nil {
		return fmt.Errorf("%w: output footer: %w", ErrMismatch, err)
	}
	if om.NumRows != res.Rows || len(om.RowGroups) != res.RowGroupsOut {
		return fmt.Errorf("%w: output has %d rows in %d row groups, want %d in %d", ErrMismatch, om.NumRows, len(om.RowGroups), res.Rows, res.RowGroupsOut)
	}
	of, err := column.Open(out, outSize)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrMismatch, err)
	}
	v := verifier{cur: -1}
	defer v.release()
	outGroup := 0
	var outRow int64
	for _, g := range res.Groups {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		var n int64
		for i := range g.RowGroups {
			n += om.RowGroups[outGroup+i].NumRows
		}
		if g.Combined {
			err = v.rows(ctx, of, outRow, n, inputs, g.Sources)
		} else {
			err = v.pages(out, outSize, om, outGroup, inputs, g.Sources[0])
		}
		if err != nil {
			return fmt.Errorf("output row group %d: %w", outGroup, err)
		}
		outGroup += g.RowGroups
		outRow += n
	}
	if outGroup != len(om.RowGroups) {
		return fmt.Errorf("%w: %d row groups accounted for, the output has %d", ErrMismatch, outGroup, len(om.RowGroups))
	}
	return nil
}

type verifier struct {
	sbuf, obuf []byte
	srow, orow []byte
	// The input last opened (index cur), kept open and its footer parsed
	// for the row groups of it that follow.
	cur    int
	r      io.ReaderAt
	size   int64
	f      *column.File
	closer func()
}

// input opens input i of inputs and reads its footer, unless it is the one
// open already (the groups of a merge come in input order: each input is
// opened and its footer parsed once per run of its row groups).
func (v *verifier) input(inputs []Input, i int) error {
	if i == v.cur {
		return nil
	}
	v.release()
	in := inputs[i]
	r, size, closer, err := open(in)
	if err != nil {
		return fmt.Errorf("%s: %w", in.Name, err)
	}
	f, err := column.Open(r, size)
	if err != nil {
		closer()
		return fmt.Errorf("%s: %w", in.Name, wrapSource(err))
	}
	v.cur, v.r, v.size, v.f, v.closer = i, r, size, f, closer
	return nil
}

// release closes the input open, if any.
func (v *verifier) release() {
	if v.cur >= 0 {
		v.closer()
		v.cur, v.r, v.f, v.closer = -1, nil, nil, nil
	}
}

// pages compares row group og of the output with row group ref of the
// inputs.
func (v *verifier) pages(out io.ReaderAt, outSize int64, om *format.FileMetaData, og int, inputs []Input, ref RowGroupRef) error {
	if err := v.input(inputs, ref.Input); err != nil {
		return err
	}
	in, g, r, size, sm := inputs[ref.Input], ref.RowGroup, v.r, v.size, v.f.MetaData()
	if g >= len(sm.RowGroups) {
		return fmt.Errorf("%w: %s has no row group %d", ErrMismatch, in.Name, g)
	}
	srg, org := &sm.RowGroups[g], &om.RowGroups[og]
	if srg.NumRows != org.NumRows || len(srg.Columns) != len(org.Columns) {
		return fmt.Errorf("%w: %s row group %d: shape differs", ErrMismatch, in.Name, g)
	}
	var sw, ow format.PageWalker
	for c := range srg.Columns {
		srng, err := sm.ColumnChunkRange(&srg.Columns[c], size)
		if err != nil {
			return fmt.Errorf("%s: %w", in.Name, wrapSource(err))
		}
		orng, err := om.ColumnChunkRange(&org.Columns[c], outSize)
		if err != nil {
			return fmt.Errorf("%w: column %d: %w", ErrMismatch, c, err)
		}
		if v.sbuf, err = format.ReadColumnChunk(v.sbuf, r, srng); err != nil {
			return fmt.Errorf("%s: %w", in.Name, wrapSource(err))
		}
		if v.obuf, err = format.ReadColumnChunk(v.obuf, out, orng); err != nil {
			return fmt.Errorf("%w: column %d: %w", ErrMismatch, c, err)
		}
		sw.Reset(v.sbuf, srng)
		ow.Reset(v.obuf, orng)
		offsets := make(map[int64]bool)
		for sw.Next() {
			if !ow.Next() {
				return fmt.Errorf("%w: column %d: output has fewer pages: %v", ErrMismatch, c, ow.Err())
			}
			if !bytes.Equal(sw.Page(), ow.Page()) {
				return fmt.Errorf("%w: column %d: page at output offset %d differs", ErrMismatch, c, ow.Offset())
			}
			offsets[ow.Offset()] = true
		}
		if err := sw.Err(); err != nil {
			return fmt.Errorf("%s: %w: %w", in.Name, ErrCorrupt, err)
		}
		if ow.Next() {
			return fmt.Errorf("%w: column %d: output has more pages", ErrMismatch, c)
		}
		oi, err := format.ReadOffsetIndex(out, outSize, &org.Columns[c])
		if err != nil {
			return fmt.Errorf("%w: column %d: offset index: %w", ErrMismatch, c, err)
		}
		if oi != nil {
			for _, l := range oi.PageLocations {
				if !offsets[l.Offset] {
					return fmt.Errorf("%w: column %d: offset index names offset %d, not a page", ErrMismatch, c, l.Offset)
				}
			}
		}
	}
	return nil
}

// rows compares n rows of the output from row first with the rows of the
// row groups refs.
func (v *verifier) rows(ctx context.Context, of *column.File, first, n int64, inputs []Input, refs []RowGroupRef) error {
	or, err := rows.NewReader(of, rows.WithRaw(), rows.WithRange(first, n))
	if err != nil {
		return fmt.Errorf("%w: %w", ErrMismatch, err)
	}
	for _, ref := range refs {
		if err := v.rowGroup(ctx, or, inputs, ref); err != nil {
			return err
		}
	}
	if _, err := or.AppendRowContext(ctx, v.orow[:0]); err != io.EOF {
		return fmt.Errorf("%w: output has more rows (%v)", ErrMismatch, err)
	}
	return nil
}

func (v *verifier) rowGroup(ctx context.Context, or *rows.Reader, inputs []Input, ref RowGroupRef) error {
	if err := v.input(inputs, ref.Input); err != nil {
		return err
	}
	in, g, f := inputs[ref.Input], ref.RowGroup, v.f
	if g >= f.NumRowGroups() {
		return fmt.Errorf("%w: %s has no row group %d", ErrMismatch, in.Name, g)
	}
	sr, err := rows.NewReader(f, rows.WithRaw(), rows.WithRange(f.FirstRow(g), f.MetaData().RowGroups[g].NumRows))
	if err != nil {
		return fmt.Errorf("%s: %w", in.Name, wrapSource(err))
	}
	for i := int64(0); ; i++ {
		v.srow, err = sr.AppendRowContext(ctx, v.srow[:0])
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", in.Name, wrapSource(err))
		}
		v.orow, err = or.AppendRowContext(ctx, v.orow[:0])
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = errors.New("output ends early")
			}
			return fmt.Errorf("%w: %s row group %d row %d: %w", ErrMismatch, in.Name, g, i, err)
		}
		if !bytes.Equal(v.srow, v.orow) {
			return fmt.Errorf("%w: %s row group %d row %d: %s, output %s", ErrMismatch, in.Name, g, i, v.srow, v.orow)
		}
	}
}
