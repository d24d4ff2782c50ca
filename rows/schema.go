package rows

import (
	"github.com/pqcodec/pqcodec/format"
)

// kind is the JSON shape of a field.
type kind uint8

const (
	kindLeaf  kind = iota // a primitive value
	kindGroup             // an object
	kindList              // an array of one element field
	kindMap               // an array of {"key", "value"} objects
)

// field is one node of the value tree a schema maps to. It differs from the
// schema tree where lists and maps are: a LIST or MAP group and its repeated
// child become one list or map field, and a repeated field without an
// annotation becomes a list field whose element is the field itself.
type field struct {
	name     string
	kind     kind
	nullable bool // the field is null when the definition level is below def
	// def is the definition level at which the field is present: its
	// schema node's maximum definition level.
	def int
	// repDef and repRep are the levels of the repeated node of a list or
	// map: an entry with definition level below repDef is an empty list, and
	// an entry with repetition level repRep starts the next element.
	repDef, repRep int
	// children are a group's fields, a list's element, or a map's key and
	// value (value is nil when the key-value group has no value field).
	children []*field
	leaf     *cursor   // kindLeaf: the column
	leaves   []*cursor // every column below the field, in column order
}

// isList reports whether n is annotated LIST.
func isList(n *format.Node) bool {
	e := n.Element
	if e.LogicalType != nil {
		return e.LogicalType.Kind == format.LogicalList
	}
	return e.ConvertedType != nil && *e.ConvertedType == format.ConvertedList
}

// isMap reports whether n is annotated MAP or MAP_KEY_VALUE.
func isMap(n *format.Node) bool {
	e := n.Element
	if e.LogicalType != nil && e.LogicalType.Kind == format.LogicalMap {
		return true
	}
	return e.ConvertedType != nil && (*e.ConvertedType == format.ConvertedMap || *e.ConvertedType == format.ConvertedMapKeyValue)
}

func repetition(n *format.Node) format.FieldRepetitionType {
	if n.Element.RepetitionType == nil {
		return format.Required
	}
	return *n.Element.RepetitionType
}

// builder maps schema nodes to fields, attaching the cursor of each leaf.
type builder struct {
	cursors map[int]*cursor // by column index
	// keep holds the nodes a projection keeps; nil keeps every node.
	keep map[*format.Node]bool
	raw  bool // WithRaw: no logical conversion
}

// kept reports whether n is part of the projection.
func (b *builder) kept(n *format.Node) bool { return b.keep == nil || b.keep[n] }

// mark keeps n, everything below it and its ancestors.
func (b *builder) mark(n *format.Node) {
	var down func(*format.Node)
	down = func(n *format.Node) {
		b.keep[n] = true
		for _, c := range n.Children {
			down(c)
		}
	}
	down(n)
	for p := n.Parent; p != nil; p = p.Parent {
		b.keep[p] = true
	}
}

// markMapKeys keeps the key of every kept map, since an entry cannot be
// read without it.
func (b *builder) markMapKeys(n *format.Node) {
	if !b.kept(n) {
		return
	}
	if isMap(n) && len(n.Children) == 1 && !n.Children[0].Leaf() && len(n.Children[0].Children) > 0 {
		b.mark(n.Children[0].Children[0])
	}
	for _, c := range n.Children {
		b.markMapKeys(c)
	}
}

// fieldOf returns the field of schema node n as a member of its parent:
// a repeated node is a list of its own values (the legacy layout without a
// LIST annotation).
func (b *builder) fieldOf(n *format.Node) *field {
	if repetition(n) == format.Repeated {
		elem := b.valueOf(n, false)
		return b.list(n, n.Parent.MaxDefinitionLevel, false, n, elem)
	}
	return b.valueOf(n, repetition(n) == format.Optional)
}

// list returns a list field named after n, holding elements elem of the
// repeated node rep.
func (b *builder) list(n *format.Node, def int, nullable bool, rep *format.Node, elem *field) *field {
	f := &field{name: n.Name(), kind: kindList, nullable: nullable, def: def,
		repDef: rep.MaxDefinitionLevel, repRep: rep.MaxRepetitionLevel, children: []*field{elem}}
	f.leaves = elem.leaves
	return f
}

// valueOf returns the field of n's values, ignoring n's own repetition
// except for nullable. LIST and MAP groups follow the rules of the Parquet
// LogicalTypes.md, backward-compatibility rules included.
func (b *builder) valueOf(n *format.Node, nullable bool) *field {
	if n.Leaf() {
		c := b.cursors[n.ColumnIndex]
		if c == nil {
			c = newCursor(n, b.raw)
			b.cursors[n.ColumnIndex] = c
		}
		return &field{name: n.Name(), kind: kindLeaf, nullable: nullable, def: n.MaxDefinitionLevel,
			leaf: c, leaves: []*cursor{c}}
	}
	if len(n.Children) == 1 && repetition(n.Children[0]) == format.Repeated {
		rep := n.Children[0]
		switch {
		case isList(n):
			var elem *field
			switch {
			case rep.Leaf(),
				len(rep.Children) > 1,
				rep.Name() == "array",
				rep.Name() == n.Name()+"_tuple":
				// Two-level list: the repeated node is the element.
				elem = b.valueOf(rep, false)
			default:
				// Three-level list: the repeated group's one child is
				// the element.
				elem = b.fieldOf(rep.Children[0])
			}
			return b.list(n, n.MaxDefinitionLevel, nullable, rep, elem)
		case isMap(n) && !rep.Leaf() && len(rep.Children) <= 2:
			key := b.fieldOf(rep.Children[0])
			f := &field{name: n.Name(), kind: kindMap, nullable: nullable, def: n.MaxDefinitionLevel,
				repDef: rep.MaxDefinitionLevel, repRep: rep.MaxRepetitionLevel}
			f.children = []*field{key, nil}
			f.leaves = append(f.leaves, key.leaves...)
			if len(rep.Children) == 2 && b.kept(rep.Children[1]) {
				value := b.fieldOf(rep.Children[1])
				f.children[1] = value
				f.leaves = append(f.leaves, value.leaves...)
			}
			return f
		}
	}
	f := &field{name: n.Name(), kind: kindGroup, nullable: nullable, def: n.MaxDefinitionLevel}
	for _, c := range n.Children {
		if !b.kept(c) {
			continue
		}
		cf := b.fieldOf(c)
		f.children = append(f.children, cf)
		f.leaves = append(f.leaves, cf.leaves...)
	}
	return f
}
