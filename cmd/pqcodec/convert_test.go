package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/internal/testcorpus"
	"github.com/pqcodec/pqcodec/rows"
)

// convertStdin runs `pqcodec convert` in-process with in as standard input.
func convertStdin(in string, args ...string) (stdout, stderr string, status int) {
	defer func(r any) { stdin = r.(interface{ Read([]byte) (int, error) }) }(stdin)
	stdin = strings.NewReader(in)
	return runCmd(append([]string{"convert"}, args...)...)
}

// TestConvertRoundTrip checks that `pqcodec cat F | pqcodec convert - G
// --schema-from F` gives a G whose cat is F's, byte for byte, for every
// file of the corpus and of testdata/foreign that cat reads, with logical
// values and with --raw on both sides.
func TestConvertRoundTrip(t *testing.T) {
	var files []string
	root := filepath.Join(testcorpus.Dir(t), "data")
	require.NoError(t, filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".parquet") && !strings.Contains(p, "large_string_map") {
			files = append(files, p)
		}
		return err
	}))
	foreign, err := filepath.Glob("../../testdata/foreign/*/*.parquet")
	require.NoError(t, err)
	files = append(files, foreign...)
	dir := t.TempDir()
	n := 0
	for _, f := range files {
		want, _, status := runCmd("cat", f)
		if status != exitOK {
			continue // a file cat does not read: not this test's
		}
		n++
		g := filepath.Join(dir, "g.parquet")
		out, errOut, status := convertStdin(want, "-", g, "--schema-from", f)
		require.Equal(t, exitOK, status, "%s: %s", f, errOut)
		require.Contains(t, out, "stdin -> ")
		got, errOut, status := runCmd("cat", g)
		require.Equal(t, exitOK, status, "%s: %s", f, errOut)
		if got != want {
			t.Fatalf("%s: cat of the converted file differs: %s", f, firstDifference([]byte(got), []byte(want)))
		}
		want, _, status = runCmd("cat", "--raw", f)
		require.Equal(t, exitOK, status, f)
		_, errOut, status = convertStdin(want, "-", g, "--schema-from", f, "--raw", "--dictionary=false", "--page-version", "2")
		require.Equal(t, exitOK, status, "%s: %s", f, errOut)
		got, _, _ = runCmd("cat", "--raw", g)
		if got != want {
			t.Fatalf("%s --raw: cat of the converted file differs: %s", f, firstDifference([]byte(got), []byte(want)))
		}
	}
	t.Logf("%d files", n)
	require.Greater(t, n, 150)
}

// TestConvertInfer converts JSON Lines and CSV under inferred schemas.
func TestConvertInfer(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.parquet")
	jsonl := `{"id": 1, "name": "ünï \"q\"", "score": 1, "at": "2024-01-31T12:34:56.789Z", "tags": ["a", null], "p": {"x": true}}

{"id": 2, "name": null, "score": 2.5, "at": "2024-02-01T00:00:00+01:00", "tags": [], "p": {"x": false}, "mixed": 3}
{"id": 3, "name": "c", "score": 3, "at": null, "tags": null, "p": {"x": true}, "mixed": "three"}
`
	stdout, errOut, status := convertStdin(jsonl, "-", "--print-schema")
	require.Equal(t, exitOK, status, errOut)
	require.Equal(t, `message schema {
  required int64 id;
  optional binary name (STRING);
  required double score;
  optional int64 at (TIMESTAMP(MICROS,true));
  optional group tags (LIST) {
    repeated group list {
      optional binary element (STRING);
    }
  }
  required group p {
    required boolean x;
  }
  optional binary mixed (STRING);
}
`, stdout)
	_, errOut, status = convertStdin(jsonl, "-", out, "--codec", "snappy")
	require.Equal(t, exitOK, status, errOut)
	got, _, _ := runCmd("cat", out)
	require.Equal(t, `{"id":1,"name":"ünï \"q\"","score":1,"at":"2024-01-31T12:34:56.789000Z","tags":["a",null],"p":{"x":true},"mixed":null}
{"id":2,"name":null,"score":2.5,"at":"2024-01-31T23:00:00.000000Z","tags":[],"p":{"x":false},"mixed":"3"}
{"id":3,"name":"c","score":3,"at":null,"tags":null,"p":{"x":true},"mixed":"three"}
`, got)

	// Lists of groups with lists, lists of lists, empty and null lists.
	nested := `{"a":[{"x":1,"y":[1,2]},{"x":2}],"b":[[1],[2,3],[]],"c":[]}
{"a":null,"b":[],"c":[null]}
`
	_, errOut, status = convertStdin(nested, "-", out)
	require.Equal(t, exitOK, status, errOut)
	got, _, _ = runCmd("cat", out)
	require.Equal(t, `{"a":[{"x":1,"y":[1,2]},{"x":2,"y":null}],"b":[[1],[2,3],[]],"c":[]}
{"a":null,"b":[],"c":[null]}
`, got)

	csvIn := filepath.Join(dir, "in.csv")
	require.NoError(t, os.WriteFile(csvIn, []byte("id,name,v,ok\n1,\"a, \"\"b\"\"\",1,true\n2,,x,false\n"), 0o644))
	stdout, errOut, status = runCmd("convert", csvIn, out, "--codec", "zstd:9")
	require.Equal(t, exitOK, status, errOut)
	require.Contains(t, stdout, "2 rows")
	got, _, _ = runCmd("cat", out)
	require.Equal(t, `{"id":1,"name":"a, \"b\"","v":"1","ok":true}
{"id":2,"name":null,"v":"x","ok":false}
`, got)
}

// TestConvertErrors checks that bad input names its line (and CSV column),
// exits with status 1 and leaves no output.
func TestConvertErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.parquet")
	schema := "message m { required int64 id; optional binary s (STRING); }"
	for _, c := range []struct{ from, in, want string }{
		{"jsonl", "{\"id\": 1}\n{\"id\": 2, \"s\": 5.5e}\n{\"id\": 3}\n", "stdin:2: invalid JSON"},
		{"jsonl", "{\"id\": 1}\n{\"id\": null}\n", "stdin:2: id: "},
		{"jsonl", "{\"id\": 1}\n\n{\"id\": 2, \"t\": 1}\n", "stdin:3: t: "},
		{"jsonl", "[1]\n", "stdin:1: not a JSON object"},
		{"csv", "id,s\n1,a\n2.5,b\n", "stdin:3: column 1 (id): "},
		{"csv", "id,s\n1,a\n2,b,c\n", "stdin:3: column 3: wrong number of fields"},
		{"csv", "id,t\n1,a\n", "stdin:1: column 2 (t): no such field"},
		{"csv", "", "stdin:1: empty CSV input"},
		{"csv", "id,s\n1,a\n2,\"open\n3,b\n4,\"c\"d\n", "stdin:3: record starting here, at line 5 column "},
	} {
		_, errOut, status := convertStdin(c.in, "-", out, "--from", c.from, "--schema", schema)
		require.Equal(t, exitError, status, c.in)
		require.Contains(t, errOut, c.want, c.in)
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		require.Empty(t, entries, "%s: output left behind", c.in)
	}
	_, errOut, status := convertStdin("", "-", out)
	require.Equal(t, exitError, status)
	require.Contains(t, errOut, "empty input")
	_, errOut, status = convertStdin("{\"a\": 1}\n{\"a\": {\"b\": 1}}\n", "-", out)
	require.Equal(t, exitError, status)
	require.Contains(t, errOut, "stdin:2: cannot infer a schema: a: an object where other rows have integer values")
	_, _, status = convertStdin("{}", "-", out, "--codec", "nope")
	require.Equal(t, exitUsage, status)
}

// decodeJSON decodes the next JSON value of d as parseJSON does, with
// encoding/json's tokenizer: the reference parseJSON is tested against.
func decodeJSON(d *json.Decoder) (any, error) {
	tok, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			var g rows.Group
			for d.More() {
				k, err := d.Token()
				if err != nil {
					return nil, err
				}
				v, err := decodeJSON(d)
				if err != nil {
					return nil, err
				}
				g = append(g, rows.Field{Name: k.(string), Value: v})
			}
			if _, err := d.Token(); err != nil {
				return nil, err
			}
			if g == nil {
				g = rows.Group{}
			}
			return g, nil
		case '[':
			list := []any{}
			for d.More() {
				v, err := decodeJSON(d)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			if _, err := d.Token(); err != nil {
				return nil, err
			}
			return list, nil
		}
		return nil, fmt.Errorf("unexpected %v", t)
	}
	return tok, nil
}

var parseJSONSeeds = []string{
	`{}`, `[]`, `{"a":1,"b":[1,-2.5e+3,0,-0.0,1E9],"c":{"d":null,"e":true,"f":false}}`,
	` {"s": "a\"b\\c\u00e9\ud83d\ude00\n\/", "t": "ünï", "u": ""} `, "{\"bad\": \"\xff\xfe\"}",
	`{"a":[[],[{}],[[1]]]}`, `"x"`, `12`, `null`,
	`"\b\f\n\r\t\"\\\/ \u0000\u001F\u00E9\uFFFF"`, `"\ud83d"`, `"\ude00x"`, `"\ud83d\u0041"`, `"\ud83d\ud83d\ude00"`,
	`"\ud83d\"`, "\"\xc3\\n\xff\xe2\x82\"", "\"\\u00e9\xed\xa0\x80\"", `"\U0041"`, `"\u00g1"`,
	// Invalid.
	``, `{`, `{"a"}`, `{"a":}`, `{"a":1,}`, `[1,]`, `[1 2]`, `01`, `1.`, `-`, `1e`, `.5`, `tru`, `nul`,
	`"abc`, `"a\`, "\"a\tb\"", `{"a":1} x`, `{1:2}`, `"\x"`, `"\u12"`, `+1`, `NaN`,
}

// TestParseJSON compares parseJSON with encoding/json on valid and invalid
// input.
func TestParseJSON(t *testing.T) {
	for _, in := range parseJSONSeeds {
		checkParseJSON(t, in)
	}
}

func FuzzParseJSON(f *testing.F) {
	for _, in := range parseJSONSeeds {
		f.Add(in)
	}
	f.Fuzz(checkParseJSON)
}

func checkParseJSON(t *testing.T, in string) {
	{
		got, gerr := rows.ParseJSON([]byte(in))
		d := json.NewDecoder(strings.NewReader(in))
		d.UseNumber()
		want, werr := decodeJSON(d)
		if werr == nil {
			if _, err := d.Token(); err != io.EOF {
				werr = errors.New("text after the value")
			}
		}
		if (gerr == nil) != (werr == nil) {
			t.Fatalf("%q: ParseJSON error %v, encoding/json %v", in, gerr, werr)
		}
		if werr == nil {
			require.Equal(t, want, got, in)
		}
	}
}
