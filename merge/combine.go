package merge

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/internal/pagebatch"
	"github.com/pqcodec/pqcodec/internal/splice"
	"github.com/pqcodec/pqcodec/writer"
)

// combine decodes the row groups refs, in order, and writes them again as
// one row group (more when the writer's row limit cuts it) into a file in
// memory, whose row groups it then returns as [splice.ReadGroup] reads them. Each
// column is written with the codec of its chunk in the first source.
func (m *merger) combine(refs []RowGroupRef) ([]*splice.Group, error) {
	first := m.srcs[refs[0].Input]
	schema := first.schema
	opts := []writer.Option{writer.WithRowGroupSize(max(m.cfg.groupMax, 2*m.cfg.minSize))}
	if m.writerWorkers > 1 {
		opts = append(opts, writer.WithWorkers(m.writerWorkers))
	}
	if m.cfg.decoder != nil {
		opts = append(opts, writer.WithCodecs(m.cfg.decoder))
	}
	for c, leaf := range schema.Leaves() {
		codec := codecfactory.Codec(first.meta.RowGroups[refs[0].RowGroup].Columns[c].MetaData.Codec)
		if codec == codecfactory.Lzo || !codec.Valid() {
			codec = writer.DefaultCodec // LZO may not compress in this build
		}
		opts = append(opts, writer.WithColumn(strings.Join(leaf.Path(), "."), writer.WithCodec(codec)))
	}
	opts = append(opts, m.cfg.writer...)
	var buf bytes.Buffer
	w, err := writer.New(&buf, schema, opts...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.inputs[refs[0].Input].Name, err)
	}
	// The inputs' column.Files (readFooters) read the row groups, each
	// input held open over its consecutive row groups.
	var held *lazyReader
	defer func() {
		if held != nil {
			held.release()
		}
	}()
	var p column.Page
	for _, ref := range refs {
		s := &m.srcs[ref.Input]
		if s.r != held {
			if held != nil {
				held.release()
				held = nil
			}
			if err := s.r.acquire(); err != nil {
				return nil, err
			}
			held = s.r
		}
		if err := m.copyRows(w, ref, s.file, &p); err != nil {
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("merge: writing combined row groups: %w", err)
	}
	out, err := splice.ReadAll(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("merge: reading combined row groups: %w", err)
	}
	return out, nil
}

// batchLevels is the least number of levels copyRows writes at a time
// (pagebatch.Batcher.MinLevels): small pages are gathered, so that the
// writer's work per call, and its workers', is not a page of a few rows.
const batchLevels = 4096

// copyRows writes the values of every column of row group ref, read by f,
// to w, page by page, and flushes nothing: w cuts row groups by size.
func (m *merger) copyRows(w *writer.Writer, ref RowGroupRef, f *column.File, p *column.Page) error {
	in := m.inputs[ref.Input]
	leaves := f.Schema().Leaves()
	for c := range f.NumColumns() {
		cr, err := f.Column(ref.RowGroup, c)
		if err != nil {
			return fmt.Errorf("%s: %w", in.Name, wrapSource(err))
		}
		b := pagebatch.Batcher{MaxDef: leaves[c].MaxDefinitionLevel, MinLevels: batchLevels}
		write := func(v *column.Values, def, rep []int16) error { return w.Write(c, v, def, rep) }
		rerr, werr := b.Copy(m.ctx, cr, p, write)
		if rerr != nil {
			if e := m.ctx.Err(); e != nil && errors.Is(rerr, e) {
				return fmt.Errorf("merge: %w", e)
			}
			return fmt.Errorf("%s: %w", in.Name, wrapSource(rerr))
		}
		if werr != nil {
			return fmt.Errorf("%s: row group %d column %d: rewriting: %w", in.Name, ref.RowGroup, c, werr)
		}
	}
	return nil
}
