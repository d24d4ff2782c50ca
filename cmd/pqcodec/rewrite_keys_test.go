package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// TestRewriteEncrypted decrypts an encrypted file of parquet-testing with
// rewrite, encrypts the result again with new keys, re-keys that, and
// checks with cat that every step prints the same rows; --verify is on
// throughout. Wrong or missing keys fail without showing a key.
func TestRewriteEncrypted(t *testing.T) {
	src := testcorpus.Data(t, "encrypt_columns_and_footer.parquet.encrypted")
	dir := t.TempDir()
	plain, enc, rekeyed := filepath.Join(dir, "plain.parquet"), filepath.Join(dir, "enc.parquet"), filepath.Join(dir, "rekeyed.parquet")
	inKeys := []string{"--footer-key", "0123456789012345", "--column-key", "double_field:1234567890123450",
		"--column-key", "float_field:1234567890123451"}
	want, errOut, status := runCmd(append(append([]string{"cat"}, inKeys...), src)...)
	require.Equal(t, 0, status, errOut)
	require.NotEmpty(t, want)

	_, errOut, status = runCmd(append(append([]string{"rewrite", "--codec", "snappy"}, inKeys...), src, plain)...)
	require.Equal(t, 0, status, errOut)
	got, errOut, status := runCmd("cat", plain)
	require.Equal(t, 0, status, errOut)
	require.Equal(t, want, got)

	t.Setenv("PQCODEC_TEST_NEW_KEY", "abcdefghijklmnopabcdefghijklmnop")
	_, errOut, status = runCmd("rewrite", "--codec", "keep", "--encrypt-footer-key", "env:PQCODEC_TEST_NEW_KEY",
		"--encrypt-algorithm", "ctr", "--encrypt-column-key", "float_field:hex:31323334353637383930313233343539",
		"--encrypt-column-key", "int32_field:footer", "--encrypt-plaintext-footer", "--encrypt-aad-prefix", "t1",
		"--encrypt-aad-prefix-not-stored", plain, enc)
	require.Equal(t, 0, status, errOut)
	_, errOut, status = runCmd("cat", "--columns", "float_field", enc)
	require.NotEqual(t, 0, status)
	got, errOut, status = runCmd("cat", "--footer-key", "abcdefghijklmnopabcdefghijklmnop", "--aad-prefix", "t1",
		"--column-key", "float_field:1234567890123459", enc)
	require.Equal(t, 0, status, errOut)
	require.Equal(t, want, got)

	_, errOut, status = runCmd("rewrite", "--codec", "zstd", "--footer-key", "abcdefghijklmnopabcdefghijklmnop", "--aad-prefix", "t1",
		"--column-key", "float_field:1234567890123459", "--encrypt-footer-key", "0123456789abcdef", "--encrypt-footer-key-id", "kf2", enc, rekeyed)
	require.Equal(t, 0, status, errOut)
	got, errOut, status = runCmd("cat", "--footer-key", "0123456789abcdef", rekeyed)
	require.Equal(t, 0, status, errOut)
	require.Equal(t, want, got)

	for _, tc := range []struct {
		args   []string
		status int
		msg    string
	}{
		{[]string{enc, filepath.Join(dir, "x.parquet")}, exitError, "encrypted"},
		{[]string{"--footer-key", "abcdefghijklmnopabcdefghijklmnoq", "--aad-prefix", "t1", enc, filepath.Join(dir, "x.parquet")}, exitError, "decrypt"},
		{[]string{"--encrypt-algorithm", "ctr", plain, filepath.Join(dir, "x.parquet")}, exitUsage, "--encrypt-footer-key"},
		{[]string{"--encrypt-footer-key", "short-key", plain, filepath.Join(dir, "x.parquet")}, exitUsage, "9 bytes"},
		{[]string{"--encrypt-footer-key", "0123456789abcdef", "--encrypt-column-key", "nope:footer", plain, filepath.Join(dir, "x.parquet")}, exitError, "nope"},
	} {
		_, errOut, status := runCmd(append([]string{"rewrite"}, tc.args...)...)
		require.Equal(t, tc.status, status, "%v: %s", tc.args, errOut)
		require.Contains(t, errOut, tc.msg, tc.args)
		for _, k := range []string{"abcdefghijklmnop", "0123456789abcdef", "short-key", "1234567890123459"} {
			require.NotContains(t, errOut, k, tc.args)
		}
		require.False(t, strings.Contains(errOut, "panic"))
	}
}
