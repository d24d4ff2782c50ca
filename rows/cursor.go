package rows

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/logical"
)

// cursor walks the levels and values of one column chunk across its pages.
type cursor struct {
	node           *format.Node
	path           string
	format         leafFormat
	leaf           logical.Leaf // formatLogical: the conversion
	maxDef, maxRep int

	rd       column.Reader
	page     column.Page
	rowGroup int
	pos      int // next level in page
	val      int // next value in page (of page.Values, or of page.Indices)
	nvals    int // values in page
	eof      bool
	ctx      context.Context // of a running XContext method, else nil
	wl       *wleaf          // the column's buffer in a Writer
}

func newCursor(n *format.Node, raw bool) *cursor {
	c := &cursor{node: n, path: strings.Join(n.Path(), "."), maxDef: n.MaxDefinitionLevel, maxRep: n.MaxRepetitionLevel}
	leaf := logical.LeafOf(n.Element)
	c.format = formatHex
	if f, ok := physicalFormats[*n.Element.Type]; ok {
		c.format = f
	} else if *n.Element.Type == format.ByteArray && leaf.Kind == logical.KindString {
		c.format = formatString
	}
	if !raw && leaf.Kind != logical.KindPhysical && leaf.Kind != logical.KindString {
		c.format, c.leaf = formatLogical, leaf
	}
	return c
}

// reset points c at the column's chunk in row group rg.
func (c *cursor) reset(f *column.File, rg int) error {
	if err := f.ResetReader(&c.rd, rg, c.node.ColumnIndex); err != nil {
		return err
	}
	c.rowGroup, c.pos, c.val, c.nvals, c.eof = rg, 0, 0, 0, false
	c.page.NumLevels = 0
	return nil
}

// fill loads the next non-empty page when the current one is used up, and
// sets eof at the end of the chunk.
func (c *cursor) fill() error {
	for !c.eof && c.pos >= c.page.NumLevels {
		err := c.readPage()
		if err == io.EOF {
			c.eof = true
			return nil
		}
		if err != nil {
			return err
		}
		c.pos, c.val, c.nvals = 0, 0, c.page.NumValues()
		if c.maxDef > 0 && len(c.page.DefLevels) != c.page.NumLevels ||
			c.maxRep > 0 && len(c.page.RepLevels) != c.page.NumLevels {
			return c.corrupt("page of %d values with %d definition and %d repetition levels",
				c.page.NumLevels, len(c.page.DefLevels), len(c.page.RepLevels))
		}
	}
	return nil
}

// levels returns the levels of the current entry; c must be filled and not
// at its end.
func (c *cursor) levels() (rep, def int) {
	if c.maxRep > 0 {
		rep = int(c.page.RepLevels[c.pos])
	}
	if c.maxDef > 0 {
		def = int(c.page.DefLevels[c.pos])
	}
	return rep, def
}

// corrupt returns a *column.PageError wrapping ErrCorrupt at c's current
// page, as the column reader numbers it (dictionary and index pages count).
func (c *cursor) corrupt(format string, args ...any) error {
	return &column.PageError{Column: c.path, RowGroup: c.rowGroup, Page: max(c.rd.PageIndex(), 0),
		Err: fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))}
}

// next returns where the next value of c is, and moves past it: in the
// page's Values, or, for a page that keeps its dictionary indices (a File
// opened with column.WithKeepDictionary), in the chunk's dictionary. c.val
// must be below c.nvals.
func (c *cursor) next() (*column.Values, int) {
	i := c.val
	c.val++
	if c.page.Dictionary != nil {
		return c.page.Dictionary, int(c.page.Indices[i])
	}
	return &c.page.Values, i
}
