package main

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// duckdbDefault is DuckDB's file of every type (scripts/foreign/gen.mjs,
// the BASE table).
const duckdbDefault = "../../testdata/foreign/duckdb/default.parquet"

// TestCatLogical checks cat's logical values on the first two rows of
// DuckDB's file of every type. Each value was checked by hand against the
// SQL that wrote it (scripts/foreign/gen.mjs, rows i=0 and i=1): dt is
// DATE '1970-01-01' + i*37 - 50000 days, tm 28.123456 s × i, ts
// 1900-01-01 + 1234.567891 s × i (local), ts_ms 2024-02-29 12:00 + 1.001 s ×
// i, ts_ns -9223286400000000000 ns + 98765.432109123 s × i, ts_s
// 2000-01-01 + i hours (DuckDB stores it in microseconds), tstz
// 2020-06-01 00:00 UTC + 0.077777 s × i (adjusted to UTC: Z), d4 (i-1000)/10
// as DECIMAL(4,1), d38 ±(10^38-1)/10^10, u32 and u64 their unsigned maxima,
// uu md5('u' || i) as 8-4-4-4-12.
func TestCatLogical(t *testing.T) {
	want := []string{
		`{"id":0,"b":true,"ob":null,"i32":-2147483648,"i32_alt":-2147483648,"oi32":null,"i64":-9223372036854775808,"i64_alt":-9223372036854775808,"i64_seq":0,"i8":-128,"i16":-32768,"u8":255,"u16":65535,"u32":4294967295,"u64":18446744073709551615,"f32":"NaN","f64":"NaN","f64_req":0,"s":"","lowcard":"cat_0","highcard":"cfcd208495d5","bl":null,"uu":"3e334e85-9879-af25-6d38-27d651b7804a","d4":-100.0,"d9":9999999.99,"d18":999999999999999.999,"d38":9999999999999999999999999999.9999999999,"dt":"1833-02-08","tm":"00:00:00.000000","ts":"1900-01-01T00:00:00.000000","ts_ms":"2024-02-29T12:00:00.000","ts_ns":"1677-09-22T00:00:00.000000000","ts_s":"2000-01-01T00:00:00.000000","tstz":"2020-06-01T00:00:00.000000Z","en":"red","allnull":null,"li":null,"lls":null,"st":null,"mp":null,"lst":null}`,
		`{"id":1,"b":false,"ob":true,"i32":2147483647,"i32_alt":2147483647,"oi32":-9993,"i64":9223372036854775807,"i64_alt":9223372036854775807,"i64_seq":1000003,"i8":127,"i16":32767,"u8":1,"u16":1,"u32":0,"u64":0,"f32":"Infinity","f64":"Infinity","f64_req":0.25,"s":"héllo wörld ✓ 日本語 🎉","lowcard":"cat_1","highcard":"c4ca4238a0b9","bl":"c4ca","uu":"e4774cdd-a079-3f86-414e-8b9140bb6db4","d4":-99.9,"d9":-9999999.99,"d18":-999999999999999.999,"d38":-9999999999999999999999999999.9999999999,"dt":"1833-03-17","tm":"00:00:28.123456","ts":"1900-01-01T00:20:34.567891","ts_ms":"2024-02-29T12:00:01.001","ts_ns":"1677-09-23T03:26:05.432109123","ts_s":"2000-01-01T01:00:00.000000","tstz":"2020-06-01T00:00:00.077777Z","en":"green","allnull":null,"li":[],"lls":[[]],"st":{"a":1,"b":"b1","c":{"d":0.5}},"mp":[],"lst":[{"x":1.5,"y":"e1"},null]}`,
	}
	out, errOut, status := runCmd("cat", "--limit", "2", duckdbDefault)
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, strings.Join(want, "\n")+"\n", out)

	// --skip seeks; head is cat with --limit 10.
	out, errOut, status = runCmd("cat", "--skip", "1", "--limit", "1", duckdbDefault)
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, want[1]+"\n", out)
	out, errOut, status = runCmd("head", duckdbDefault)
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, 10, strings.Count(out, "\n"))
	assert.True(t, strings.HasPrefix(out, want[0]+"\n"+want[1]+"\n"))
	out, _, status = runCmd("head", "--skip", "1", "--limit", "1", duckdbDefault)
	require.Equal(t, exitOK, status)
	assert.Equal(t, want[1]+"\n", out)
	_, errOut, status = runCmd("cat", "--skip", "-1", duckdbDefault)
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, "--skip must not be negative")

	// --raw is the physical form the writer's expected rows hold, byte for
	// byte.
	raw, err := os.ReadFile("../../testdata/foreign/duckdb/default.jsonl")
	require.NoError(t, err)
	lines := strings.SplitAfter(string(raw), "\n")
	out, errOut, status = runCmd("cat", "--raw", "--skip", "5", "--limit", "3", duckdbDefault)
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, strings.Join(lines[5:8], ""), out)
}

// TestCatInterval reads INTERVAL values DuckDB 1.5.6 wrote
// (testdata/duckdb_interval.parquet: COPY of INTERVAL '14 months 3 days
// 1.5 seconds', '0 seconds', '27 milliseconds', '1 month 1 day', '100
// hours', '2 years' and NULL); the expected texts are DuckDB's own CAST(iv
// AS VARCHAR) of the same rows.
func TestCatInterval(t *testing.T) {
	out, errOut, status := runCmd("cat", "testdata/duckdb_interval.parquet")
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, `{"iv":"1 year 2 months 3 days 00:00:01.5"}
{"iv":"00:00:00"}
{"iv":"00:00:00.027"}
{"iv":"1 month 1 day"}
{"iv":"100:00:00"}
{"iv":"2 years"}
{"iv":null}
`, out)
	out, _, _ = runCmd("cat", "--raw", "--limit", "1", "testdata/duckdb_interval.parquet")
	assert.Equal(t, `{"iv":"0e00000003000000dc050000"}`+"\n", out)
}
