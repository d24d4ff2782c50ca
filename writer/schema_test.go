package writer_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/writer"
)

// TestMessageMatchesParse builds in Go the schema of a message-type text
// and compares the two element by element.
func TestMessageMatchesParse(t *testing.T) {
	built, err := writer.Message("m",
		writer.Leaf("id", format.Required, format.Int64).WithFieldID(3),
		writer.List("tags", format.Optional, writer.String("x", format.Optional)),
		writer.Leaf("ts", format.Optional, format.Int64).
			WithLogicalType(&format.LogicalType{Kind: format.LogicalTimestamp, Unit: format.Micros, IsAdjustedToUTC: true}),
		writer.Decimal("amount", format.Required, 9, 2),
		writer.Decimal("big", format.Required, 38, 9),
		writer.Leaf("small", format.Optional, format.Int32).WithLogicalType(&format.LogicalType{Kind: format.LogicalInteger, BitWidth: 8}),
	)
	require.NoError(t, err)
	parsed, err := format.ParseSchema(`message m {
		required int64 id = 3;
		optional group tags (LIST) { repeated group list { optional binary element (STRING); } }
		optional int64 ts (TIMESTAMP(MICROS,true));
		required fixed_len_byte_array(4) amount (DECIMAL(9,2));
		required fixed_len_byte_array(16) big (DECIMAL(38,9));
		optional int32 small (INTEGER(8,false));
	}`)
	require.NoError(t, err)
	a, b := built.Leaves(), parsed.Leaves()
	require.Len(t, a, len(b))
	for i := range a {
		require.Equal(t, b[i].Path(), a[i].Path())
		require.Equal(t, *b[i].Element, *a[i].Element, "leaf %v", a[i].Path())
		require.Equal(t, b[i].MaxDefinitionLevel, a[i].MaxDefinitionLevel)
		require.Equal(t, b[i].MaxRepetitionLevel, a[i].MaxRepetitionLevel)
	}
	require.Equal(t, *parsed.Root().Children[1].Element.ConvertedType, *built.Root().Children[1].Element.ConvertedType)
	_, err = writer.Message("m", writer.Group("g", format.Optional))
	require.ErrorIs(t, err, writer.ErrSchema)
}
