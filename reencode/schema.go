package reencode

import (
	"strings"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/writer"
)

// subSchema returns the schema made of the leaves cols of s (column
// indexes, ascending) and the groups above them, with the same names,
// repetitions and annotations, so that their levels are the same as in s;
// and the dotted paths of those leaves.
func subSchema(s *format.Schema, cols []int) (*format.Schema, []string, error) {
	want := make(map[int]bool, len(cols))
	for _, c := range cols {
		want[c] = true
	}
	var keep func(n *format.Node) bool
	keep = func(n *format.Node) bool {
		if n.Leaf() {
			return want[n.ColumnIndex]
		}
		for _, c := range n.Children {
			if keep(c) {
				return true
			}
		}
		return false
	}
	var elems []format.SchemaElement
	var paths []string
	var walk func(n *format.Node)
	walk = func(n *format.Node) {
		e := *n.Element
		at := len(elems)
		elems = append(elems, e)
		if n.Leaf() {
			paths = append(paths, strings.Join(n.Path(), "."))
			return
		}
		var k int32
		for _, c := range n.Children {
			if keep(c) {
				k++
				walk(c)
			}
		}
		elems[at].NumChildren = &k
	}
	walk(s.Root())
	sub, err := format.NewSchema(elems)
	return sub, paths, err
}

// codecOf returns the codec a re-encoded column keeps: its chunk's, or the
// writer's default for LZO, which not every build compresses.
func codecOf(m *format.ColumnMetaData) codecfactory.Codec {
	c := codecfactory.Codec(m.Codec)
	if !c.Valid() || c == codecfactory.Lzo {
		return writer.DefaultCodec
	}
	return c
}
