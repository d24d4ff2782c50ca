package format

import "fmt"

// Schema is the tree built from a file's flat (depth-first) SchemaElement
// list. It is immutable after [NewSchema] and safe for concurrent use.
type Schema struct {
	root   *Node
	leaves []*Node
}

// Node is one node of a [Schema].
type Node struct {
	// Element is the schema element of the node; it points into the list
	// passed to NewSchema.
	Element  *SchemaElement
	Parent   *Node // nil for the root
	Children []*Node
	// Depth is the number of nodes from below the root to this node: 0 for
	// the root, 1 for its children. It is at most [MaxSchemaDepth].
	Depth int
	// MaxDefinitionLevel and MaxRepetitionLevel are the maximum levels of
	// values at this node: the number of OPTIONAL or REPEATED (respectively
	// REPEATED) nodes on the path, the root excluded.
	MaxDefinitionLevel int
	MaxRepetitionLevel int
	// ColumnIndex is the leaf's position in column order (the order of
	// RowGroup.columns), or -1 for groups.
	ColumnIndex int
}

// MaxSchemaDepth bounds the nesting of a schema, so that levels fit in a
// byte and hostile schemas cannot make tree walks arbitrarily deep.
const MaxSchemaDepth = 255

// Path returns the names from below the root to n, as in
// ColumnMetaData.path_in_schema; it is empty for the root. Each call
// allocates a new slice.
func (n *Node) Path() []string {
	p := make([]string, n.Depth)
	for x := n; x.Parent != nil; x = x.Parent {
		p[x.Depth-1] = x.Element.Name
	}
	return p
}

// HasPath reports whether n's path equals p, without allocating.
func (n *Node) HasPath(p []string) bool {
	if len(p) != n.Depth {
		return false
	}
	for x := n; x.Parent != nil; x = x.Parent {
		if p[x.Depth-1] != x.Element.Name {
			return false
		}
	}
	return true
}

// Name returns the node's name.
func (n *Node) Name() string { return n.Element.Name }

// Leaf reports whether n is a primitive (leaf) column.
func (n *Node) Leaf() bool { return n.ColumnIndex >= 0 }

// NewSchema builds the schema tree of elems, whose first element is the root.
// An element with num_children > 0 is a group; one without is a leaf and must
// have a type, except the root, which is always a group. Children counts are
// validated against the list (each element is used exactly once) and nesting
// is bounded by [MaxSchemaDepth], so hostile lists fail instead of recursing:
// the tree is built iteratively, in memory linear in len(elems). Errors wrap
// [ErrCorrupt]. Children slices grow as children are found, never by the
// claimed counts. A missing repetition type on a non-root node is read as
// REQUIRED.
func NewSchema(elems []SchemaElement) (*Schema, error) {
	if len(elems) == 0 {
		return nil, fmt.Errorf("%w: empty schema", ErrCorrupt)
	}
	type frame struct {
		node      *Node
		remaining int
	}
	numChildren := func(i int) (int, error) {
		nc := elems[i].NumChildren
		if nc == nil {
			return 0, nil
		}
		if *nc < 0 || int64(*nc) > int64(len(elems)-1-i) {
			return 0, fmt.Errorf("%w: schema element %d (%q) claims %d children with %d elements left",
				ErrCorrupt, i, elems[i].Name, *nc, len(elems)-1-i)
		}
		return int(*nc), nil
	}
	s := new(Schema)
	n, err := numChildren(0)
	if err != nil {
		return nil, err
	}
	s.root = &Node{Element: &elems[0], ColumnIndex: -1}
	stack := []frame{{s.root, n}}
	for i := 1; i < len(elems); i++ {
		for len(stack) > 0 && stack[len(stack)-1].remaining == 0 {
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			return nil, fmt.Errorf("%w: schema has %d elements after the root's subtree ends at %d",
				ErrCorrupt, len(elems)-i, i)
		}
		top := &stack[len(stack)-1]
		top.remaining--
		parent := top.node
		e := &elems[i]
		node := &Node{
			Element:            e,
			Parent:             parent,
			Depth:              parent.Depth + 1,
			MaxDefinitionLevel: parent.MaxDefinitionLevel,
			MaxRepetitionLevel: parent.MaxRepetitionLevel,
			ColumnIndex:        -1,
		}
		if e.RepetitionType != nil {
			switch *e.RepetitionType {
			case Required:
			case Optional:
				node.MaxDefinitionLevel++
			case Repeated:
				node.MaxDefinitionLevel++
				node.MaxRepetitionLevel++
			default:
				return nil, fmt.Errorf("%w: schema element %d (%q): unsupported repetition type %v",
					ErrCorrupt, i, e.Name, *e.RepetitionType)
			}
		}
		if node.Depth > MaxSchemaDepth {
			return nil, fmt.Errorf("%w: schema nested deeper than %d", ErrCorrupt, MaxSchemaDepth)
		}
		parent.Children = append(parent.Children, node)
		nc, err := numChildren(i)
		if err != nil {
			return nil, err
		}
		if nc > 0 {
			stack = append(stack, frame{node, nc})
			continue
		}
		if e.Type == nil {
			return nil, fmt.Errorf("%w: schema element %d (%q) has neither a type nor children",
				ErrCorrupt, i, e.Name)
		}
		if *e.Type < Boolean || *e.Type > FixedLenByteArray {
			return nil, fmt.Errorf("%w: schema element %d (%q) has invalid physical type %v",
				ErrCorrupt, i, e.Name, *e.Type)
		}
		node.ColumnIndex = len(s.leaves)
		s.leaves = append(s.leaves, node)
	}
	for _, f := range stack {
		if f.remaining > 0 {
			return nil, fmt.Errorf("%w: schema element %q is missing %d children",
				ErrCorrupt, f.node.Element.Name, f.remaining)
		}
	}
	return s, nil
}

// Root returns the root group.
func (s *Schema) Root() *Node { return s.root }

// Leaves returns the leaf columns in column order, the order of
// RowGroup.columns. The slice is shared: do not modify it.
func (s *Schema) Leaves() []*Node { return s.leaves }

// CheckRowGroup checks that rg has one column chunk per leaf, and that each
// chunk's metadata (when present) names the leaf's path. The chunk's
// physical type is not compared with the leaf's: parquet-java, arrow-cpp,
// arrow-rs and DuckDB read a chunk with its schema leaf's type. Errors wrap
// [ErrCorrupt].
func (s *Schema) CheckRowGroup(rg *RowGroup) error {
	if len(rg.Columns) != len(s.leaves) {
		return fmt.Errorf("%w: row group has %d column chunks for %d leaf columns",
			ErrCorrupt, len(rg.Columns), len(s.leaves))
	}
	for i := range rg.Columns {
		m := rg.Columns[i].MetaData
		if m == nil {
			continue
		}
		leaf := s.leaves[i]
		if !leaf.HasPath(m.PathInSchema) {
			return fmt.Errorf("%w: column chunk %d has path %v, schema leaf is %v",
				ErrCorrupt, i, m.PathInSchema, leaf.Path())
		}
	}
	return nil
}
