package format

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func group(name string, rep FieldRepetitionType, n int32) SchemaElement {
	return SchemaElement{Name: name, RepetitionType: &rep, NumChildren: &n}
}

func leaf(name string, rep FieldRepetitionType, typ Type) SchemaElement {
	return SchemaElement{Name: name, RepetitionType: &rep, Type: &typ}
}

func TestSchemaTree(t *testing.T) {
	elems := []SchemaElement{
		{Name: "schema", NumChildren: ptr(int32(3))},
		leaf("id", Required, Int64),
		group("tags", Optional, 1),
		group("list", Repeated, 1),
		leaf("element", Optional, ByteArray),
		group("m", Required, 1),
		group("key_value", Repeated, 2),
		leaf("key", Required, ByteArray),
		leaf("value", Optional, Int32),
	}
	s, err := NewSchema(elems)
	require.NoError(t, err)
	type want struct {
		path     []string
		def, rep int
	}
	var got []want
	for i, l := range s.Leaves() {
		assert.Equal(t, i, l.ColumnIndex)
		assert.True(t, l.Leaf())
		got = append(got, want{l.Path(), l.MaxDefinitionLevel, l.MaxRepetitionLevel})
		assert.True(t, l.HasPath(l.Path()))
		assert.False(t, l.HasPath(append(l.Path(), "x")))
	}
	assert.Equal(t, []want{
		{[]string{"id"}, 0, 0},
		{[]string{"tags", "list", "element"}, 3, 1},
		{[]string{"m", "key_value", "key"}, 1, 1},
		{[]string{"m", "key_value", "value"}, 2, 1},
	}, got)
	assert.Equal(t, "schema", s.Root().Name())
	assert.Len(t, s.Root().Children, 3)
	assert.False(t, s.Root().Leaf())
	assert.Empty(t, s.Root().Path())

	rg := &RowGroup{}
	for _, l := range s.Leaves() {
		rg.Columns = append(rg.Columns, ColumnChunk{MetaData: &ColumnMetaData{PathInSchema: l.Path(), Type: *l.Element.Type}})
	}
	require.NoError(t, s.CheckRowGroup(rg))
	rg.Columns[1].MetaData.PathInSchema = []string{"tags", "list", "item"}
	assert.ErrorIs(t, s.CheckRowGroup(rg), ErrCorrupt)
	rg.Columns[1].MetaData.PathInSchema = s.Leaves()[1].Path()
	rg.Columns[2].MetaData.Type = Int32 // read with the schema's type
	require.NoError(t, s.CheckRowGroup(rg))
	rg.Columns = rg.Columns[:3]
	assert.ErrorIs(t, s.CheckRowGroup(rg), ErrCorrupt)
}

func TestSchemaHostile(t *testing.T) {
	root := func(n int32) SchemaElement { return SchemaElement{Name: "r", NumChildren: ptr(n)} }
	x := leaf("x", Required, Int32)
	cases := map[string][]SchemaElement{
		"empty":              nil,
		"negative children":  {root(-1)},
		"too many children":  {root(2), x},
		"huge children":      {root(1 << 30), x},
		"trailing elements":  {root(1), x, x},
		"leaf without type":  {root(1), {Name: "y"}},
		"invalid type":       {root(1), leaf("z", Required, Type(8))},
		"invalid repetition": {root(1), leaf("z", FieldRepetitionType(7), Int32)},
		"missing grandchild": {root(1), group("g", Optional, 2), x},
	}
	for name, elems := range cases {
		_, err := NewSchema(elems)
		assert.ErrorIs(t, err, ErrCorrupt, name)
	}

	// A chain deeper than MaxSchemaDepth fails; one at the limit works and
	// is built without recursion.
	chain := func(depth int) []SchemaElement {
		e := []SchemaElement{root(1)}
		for i := 1; i < depth; i++ {
			e = append(e, group("g", Optional, 1))
		}
		return append(e, leaf("l", Optional, Int32))
	}
	s, err := NewSchema(chain(MaxSchemaDepth))
	require.NoError(t, err)
	assert.Equal(t, MaxSchemaDepth, s.Leaves()[0].MaxDefinitionLevel)
	assert.Len(t, s.Leaves()[0].Path(), MaxSchemaDepth)
	_, err = NewSchema(chain(MaxSchemaDepth + 1))
	assert.ErrorIs(t, err, ErrCorrupt)

	// A root with no children and no row groups is a valid empty schema.
	s, err = NewSchema([]SchemaElement{root(0)})
	require.NoError(t, err)
	assert.Empty(t, s.Leaves())
}
