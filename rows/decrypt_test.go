package rows

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/encryption"
	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// testKeys are the keys of parquet-testing's encrypted files (data/README.md).
func testKeys() *encryption.Properties {
	return &encryption.Properties{
		FooterKey:  []byte("0123456789012345"),
		ColumnKeys: map[string][]byte{"double_field": []byte("1234567890123450"), "float_field": []byte("1234567890123451")},
	}
}

// jsonRows returns the rows of an encrypted corpus file as JSON lines.
func decryptedJSONRows(t *testing.T, name string, p *encryption.Properties, opts ...Option) (string, error) {
	f, err := column.OpenFile(testcorpus.Data(t, name), column.WithDecryption(p))
	if err != nil {
		return "", err
	}
	defer f.Close()
	r, err := NewReader(f, opts...)
	require.NoError(t, err)
	var b []byte
	for {
		b, err = r.AppendRow(b)
		if errors.Is(err, io.EOF) {
			return string(b), nil
		}
		if err != nil {
			return "", err
		}
		b = append(b, '\n')
	}
}

// TestDecryptRows reads the rows of the encrypted files written with each
// of arrow's encryption configurations: all hold the same rows.
func TestDecryptRows(t *testing.T) {
	want, err := decryptedJSONRows(t, "uniform_encryption.parquet.encrypted", testKeys())
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSuffix(want, "\n"), "\n")
	require.Len(t, lines, 50)
	require.Contains(t, lines[2], `"ba_field":"70617271756574303032"`) // "parquet002", a BYTE_ARRAY without a string annotation
	require.Contains(t, lines[2], `"double_field":2.2222222`)
	for _, name := range []string{"encrypt_columns_and_footer.parquet.encrypted", "encrypt_columns_and_footer_aad.parquet.encrypted",
		"encrypt_columns_and_footer_ctr.parquet.encrypted", "encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted",
		"encrypt_columns_plaintext_footer.parquet.encrypted"} {
		p := testKeys()
		if strings.Contains(name, "disable_aad_storage") {
			p.AADPrefix = []byte("tester") // not stored in the file
		}
		got, err := decryptedJSONRows(t, name, p)
		require.NoError(t, err, name)
		require.Equal(t, want, got, name)
	}

	// Without the key of double_field: the other columns read, and the
	// rows that need it fail naming it.
	p := testKeys()
	delete(p.ColumnKeys, "double_field")
	_, err = decryptedJSONRows(t, "encrypt_columns_and_footer.parquet.encrypted", p)
	require.ErrorIs(t, err, column.ErrEncrypted)
	require.ErrorContains(t, err, "double_field")
	got, err := decryptedJSONRows(t, "encrypt_columns_and_footer.parquet.encrypted", p, WithColumns("int32_field", "float_field"))
	require.NoError(t, err)
	require.Contains(t, strings.Split(got, "\n")[3], `"float_field":3.3`)
}
