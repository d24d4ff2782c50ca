package format

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseSchema(t *testing.T) {
	s, err := ParseSchema(`message m {
		required int64 id = 3;
		optional group tags (LIST) {
			repeated group list {
				optional binary element (STRING);
			}
		}
		optional int64 ts (TIMESTAMP(MICROS,true));
		optional int64 local (TIMESTAMP(NANOS,false)) = 7;
		required fixed_len_byte_array(16) amount (DECIMAL(38,9));
		optional int32 small (INTEGER(8,false));
		optional binary legacy (UTF8);
		optional int32 d (DATE);
		required FLOAT f;
		optional group m (MAP) { repeated group key_value { required binary key (STRING); optional double value; } }
	}`)
	require.NoError(t, err)
	leaves := s.Leaves()
	require.Len(t, leaves, 11)
	id := leaves[0].Element
	require.Equal(t, "id", id.Name)
	require.Equal(t, Int64, *id.Type)
	require.Equal(t, int32(3), *id.FieldID)
	el := leaves[1]
	require.Equal(t, []string{"tags", "list", "element"}, el.Path())
	require.Equal(t, 3, el.MaxDefinitionLevel)
	require.Equal(t, 1, el.MaxRepetitionLevel)
	require.Equal(t, LogicalString, el.Element.LogicalType.Kind)
	require.Equal(t, ConvertedUTF8, *el.Element.ConvertedType)
	require.Equal(t, ConvertedList, *el.Parent.Parent.Element.ConvertedType)
	ts := leaves[2].Element.LogicalType
	require.Equal(t, LogicalType{Kind: LogicalTimestamp, Unit: Micros, IsAdjustedToUTC: true}, *ts)
	require.Equal(t, ConvertedTimestampMicros, *leaves[2].Element.ConvertedType)
	require.Nil(t, leaves[3].Element.ConvertedType, "TIMESTAMP(NANOS,false) has no converted type")
	require.Equal(t, int32(7), *leaves[3].Element.FieldID)
	amount := leaves[4].Element
	require.Equal(t, int32(16), *amount.TypeLength)
	require.Equal(t, int32(38), *amount.Precision)
	require.Equal(t, int32(9), *amount.Scale)
	require.Equal(t, LogicalType{Kind: LogicalInteger, BitWidth: 8}, *leaves[5].Element.LogicalType)
	require.Equal(t, ConvertedUint8, *leaves[5].Element.ConvertedType)
	require.Equal(t, LogicalString, leaves[6].Element.LogicalType.Kind)
	require.Equal(t, ConvertedDate, *leaves[7].Element.ConvertedType)
	require.Equal(t, Float, *leaves[8].Element.Type)
	require.Equal(t, Required, *leaves[8].Element.RepetitionType)
	require.Equal(t, []string{"m", "key_value", "value"}, leaves[10].Path())
}

func TestParseSchemaErrors(t *testing.T) {
	for _, text := range []string{
		``,
		`message`,
		`message m`,
		`message m {`,
		`message m { required int64 }`,
		`message m { required int65 a; }`,
		`message m { maybe int64 a; }`,
		`message m { required int64 a }`,
		`message m { required int64 a (NOPE); }`,
		`message m { required int64 a (DECIMAL(1)); }`,
		`message m { required int64 a (TIMESTAMP(SECONDS,true)); }`,
		`message m { required int64 a (INTEGER(7,true)); }`,
		`message m { required fixed_len_byte_array a; }`,
		`message m { required int64 a = x; }`,
		`message m { } extra`,
	} {
		_, err := ParseSchema(text)
		require.Error(t, err, text)
		require.True(t, errors.Is(err, ErrSyntax) || errors.Is(err, ErrCorrupt), "%q: %v", text, err)
	}
}

func FuzzParseSchema(f *testing.F) {
	f.Add(`message m { required int64 id = 3; optional group g (LIST) { repeated group list { optional binary e (STRING); } } }`)
	f.Add(`message m { required fixed_len_byte_array(2) f (DECIMAL(4,2)); }`)
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParseSchema(text)
		if err == nil && s == nil {
			t.Fatal("nil schema without an error")
		}
	})
}
