package format

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// TestSchemaTextRoundTrip parses the text Schema.String prints for every
// schema of the repository's files and parquet-testing's data/ with
// ParseSchema and prints it again: the two texts are equal, so a schema
// printed by `pqcodec schema` (parquet-java's MessageType text) can be given
// back to the writer. The texts parquet-java's own parser cannot read
// either (a name with spaces, an empty root name, a CRS holding PROJJSON)
// are errors, never a different schema.
func TestSchemaTextRoundTrip(t *testing.T) {
	var files []string
	for _, g := range []string{"../testdata/foreign/*/*.parquet", "../testdata/difftest/*.parquet"} {
		m, err := filepath.Glob(g)
		require.NoError(t, err)
		files = append(files, m...)
	}
	files = append(files, testcorpus.Files(t, "data")...)
	parsed, refused := 0, 0
	for _, name := range files {
		fh, err := os.Open(name)
		require.NoError(t, err)
		st, err := fh.Stat()
		require.NoError(t, err)
		md, err := ReadFooter(fh, st.Size())
		fh.Close()
		if err != nil {
			continue
		}
		s, err := NewSchema(md.Schema)
		if err != nil {
			continue
		}
		text := s.String()
		p, err := ParseSchema(text)
		if err != nil {
			require.ErrorIs(t, err, ErrSyntax, name)
			t.Logf("%s: %v", filepath.Base(name), err)
			refused++
			continue
		}
		require.Equal(t, text, p.String(), name)
		parsed++
	}
	t.Logf("%d schemas printed, parsed and printed again identically; %d refused", parsed, refused)
	require.Greater(t, parsed, 150)
	require.LessOrEqual(t, refused, 2) // crs-arbitrary-value (PROJJSON), unknown-logical-type (names with spaces)
}
