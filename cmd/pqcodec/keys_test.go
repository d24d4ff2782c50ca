package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// TestCatEncrypted prints encrypted files with the keys given each way the
// flags take them, and checks that no message repeats a key.
func TestCatEncrypted(t *testing.T) {
	path := testcorpus.Data(t, "encrypt_columns_and_footer.parquet.encrypted")
	keyFile := filepath.Join(t.TempDir(), "kc2")
	require.NoError(t, os.WriteFile(keyFile, []byte("1234567890123451\n"), 0o600))
	t.Setenv("PQCODEC_TEST_FOOTER_KEY", "0123456789012345")
	full := []string{"cat", "--limit", "3", "--footer-key", "env:PQCODEC_TEST_FOOTER_KEY",
		"--column-key", "double_field:hex:31323334353637383930313233343530",
		"--column-key", "float_field:file:" + keyFile, path}
	out, errOut, status := runCmd(full...)
	require.Equal(t, 0, status, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 3)
	require.Contains(t, lines[2], `"float_field":2.2,"double_field":2.2222222`)

	// The same with base64 and literal keys.
	out2, errOut, status := runCmd("cat", "--limit", "3", "--footer-key", "0123456789012345",
		"--column-key", "double_field:base64:MTIzNDU2Nzg5MDEyMzQ1MA==", "--column-key", "float_field:1234567890123451", path)
	require.Equal(t, 0, status, errOut)
	require.Equal(t, out, out2)

	// Only the plaintext columns and one key.
	out, errOut, status = runCmd("cat", "--limit", "1", "--footer-key", "0123456789012345",
		"--columns", "int32_field,double_field", "--column-key", "double_field:hex:31323334353637383930313233343530", path)
	require.Equal(t, 0, status, errOut)
	require.Equal(t, `{"int32_field":"00:00:00.000Z","double_field":0}`+"\n", out) // TIME(MILLIS,true)

	// The AAD prefix of a file that does not store it.
	out, errOut, status = runCmd("cat", "--limit", "1", "--footer-key", "0123456789012345", "--aad-prefix", "tester",
		"--columns", "int32_field", testcorpus.Data(t, "encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted"))
	require.Equal(t, 0, status, errOut)
	require.Equal(t, `{"int32_field":"00:00:00.000Z"}`+"\n", out)

	// Failures: no key, a wrong key, a missing column key, malformed
	// keys. No message shows a key.
	for _, tc := range []struct {
		args   []string
		status int
		msg    string
	}{
		{[]string{path}, exitError, "encrypted"},
		{[]string{"--footer-key", "0123456789012349", path}, exitError, "does not decrypt"},
		{[]string{"--footer-key", "0123456789012345", "--columns", "double_field", path}, exitError, "double_field"},
		{[]string{"--footer-key", "0123456789abc", path}, exitUsage, "13 bytes"},
		{[]string{"--footer-key", "hex:0123456789abcdeg0123456789abcdef", path}, exitUsage, "does not decode"},
		{[]string{"--footer-key", "env:PQCODEC_TEST_UNSET_KEY", path}, exitUsage, "not set"},
		{[]string{"--column-key", "double_field", path}, exitUsage, "COLUMN:KEY"},
	} {
		_, errOut, status := runCmd(append([]string{"cat"}, tc.args...)...)
		require.Equal(t, tc.status, status, "%v: %s", tc.args, errOut)
		require.Contains(t, errOut, tc.msg, tc.args)
		for _, k := range []string{"0123456789012345", "0123456789012349", "0123456789abc", "0123456789abcdeg", "1234567890123450"} {
			require.NotContains(t, errOut, k, tc.args)
		}
	}
}

// TestInspectEncrypted inspects an encrypted footer with its key.
func TestInspectEncrypted(t *testing.T) {
	path := testcorpus.Data(t, "encrypt_columns_and_footer.parquet.encrypted")
	out, errOut, status := runCmd("inspect", "--footer-key", "0123456789012345", path)
	require.Equal(t, 0, status, errOut)
	require.Contains(t, out, "50 rows")
	require.Contains(t, out, "(encrypted)")
	_, _, status = runCmd("inspect", path)
	require.Equal(t, exitError, status)

	// With every key, the encrypted chunks' pages are walked too.
	out, errOut, status = runCmd("inspect", "--footer-key", "0123456789012345", "--column-key", "float_field:1234567890123451",
		"--column-key", "double_field:1234567890123450", path)
	require.Equal(t, 0, status, errOut)
	require.NotContains(t, out, "(encrypted)")
	require.Regexp(t, `float_field +FLOAT +SNAPPY .* 1 v1 +50 `, out)
	out, errOut, status = runCmd("inspect", "--json", "--footer-key", "0123456789012345", "--column-key", "float_field:1234567890123451",
		"--column-key", "double_field:1234567890123450", path)
	require.Equal(t, 0, status, errOut)
	require.Equal(t, 2, strings.Count(out, `"encrypted": true`))
}
