// Command pqcodec reads Parquet files with pqcodec: it prints a file's
// schema as parquet-java does (schema), describes its layout, statistics,
// page index and bloom filters (inspect, meta), lists its pages (pages),
// prints its rows as JSON Lines with logical values (cat, head), counts its
// rows (rowcount), sums its sizes (size), measures how fast it decompresses
// and decodes (bench), recompresses it with another codec without decoding
// values (rewrite), merges files of one schema without decoding values
// (merge), and runs a self-contained tour of every encoding and
// codec on generated columns (demo). The verbs are parquet-cli's and
// pqrs's where they mean the same; with no arguments it prints its help.
//
// Usage:
//
//	pqcodec schema FILE [--json]
//	pqcodec inspect FILE [--json]          (or meta)
//	pqcodec pages FILE [--columns a.b,c] [--json]
//	pqcodec cat FILE [--columns a,b] [--skip N] [--limit N] [--raw]
//	pqcodec head FILE [--columns a,b] [--skip N] [--limit N] [--raw]
//	pqcodec rowcount FILE [--json]
//	pqcodec size FILE [--json]
//	pqcodec bench FILE [--count N] [--workers N]
//	pqcodec rewrite IN OUT [--codec zstd[:level]] [--columns path=codec,...] [--workers N] [--verify=false] [--footer-key KEY] [--encrypt-footer-key KEY]
//	pqcodec convert IN OUT [--from jsonl|csv] [--schema TEXT | --schema-from FILE] [--print-schema] [--codec zstd[:level]] ...
//	pqcodec merge OUT IN... [--min-row-group-size SIZE] [--max-memory SIZE] [--workers N] [--verify=false]
//	pqcodec demo [--short] [--rows N]
//
// Exit status is 0 on success, 1 when a file cannot be read (with one line
// on stderr: "pqcodec: FILE: column C, row group R, page P: cause") and 2
// for usage errors.
package main

import (
	"errors"
	"flag"
	"fmt"
	_ "github.com/pqcodec/pqcodec/native/arenas"
	"io"
	"os"
	"strings"

	"github.com/pqcodec/pqcodec/column"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// Exit statuses.
const (
	exitOK    = 0
	exitError = 1 // a file could not be read, or the demo failed
	exitUsage = 2
)

// command is one subcommand.
type command struct {
	name, args, summary string
	// setup defines the command's flags on fs and returns the function
	// that does the work once fs has parsed the command line, given the
	// positional arguments.
	setup func(fs *flag.FlagSet) func(positional []string, stdout, stderr io.Writer) error
}

var commands = []command{
	{"schema", "FILE [--json]", "print the schema as parquet-java prints a MessageType", setupSchema},
	{"inspect", "FILE [--json]", "show the schema, key-value metadata, row groups, and per column chunk its codec, encodings, pages, sizes, statistics, page index and bloom filter", setupInspect},
	{"meta", "FILE [--json]", "the same as inspect (parquet-cli's name)", setupInspect},
	{"pages", "FILE [--columns a.b,c] [--json]", "list every page: type, encoding, values, nulls, sizes and statistics", setupPages},
	{"cat", "FILE [--columns a,b] [--skip N] [--limit N] [--raw]", "print the rows as JSON Lines, one object per row, with logical values (dates, timestamps, decimals, UUIDs)", setupCat},
	{"head", "FILE [--columns a,b] [--skip N] [--limit N] [--raw]", "print the first rows (10 unless --limit says otherwise), as cat does", setupHead},
	{"rowcount", "FILE [--json]", "print the number of rows the footer declares", setupRowCount},
	{"size", "FILE [--json]", "print the file's size and its column chunks' compressed and uncompressed sizes", setupSize},
	{"bench", "FILE [--count N] [--workers N]", "measure decompression and decoding speed per column", setupBench},
	{"rewrite", "IN OUT [--codec zstd[:level]] [--columns path=codec,...] [--workers N] [--verify=false] [--footer-key KEY] [--encrypt-footer-key KEY]", "recompress every page of a file, or of every .parquet file under a directory, with another codec", setupRewrite},
	{"convert", "IN OUT [--from jsonl|csv] [--schema TEXT | --schema-from FILE] [--print-schema] [--codec zstd[:level]] ...", "write JSON Lines or CSV (or - for standard input) as a Parquet file, under a given or inferred schema", setupConvert},
	{"merge", "OUT IN... [--min-row-group-size SIZE] [--max-memory SIZE] [--workers N] [--verify=false]", "merge Parquet files of one schema (or every .parquet file under a directory IN) into OUT, their rows in order: row groups copied page by page, small ones combined", setupMerge},
	{"demo", "[--short] [--rows N]", "encode, compress, decompress and verify generated columns with every encoding and codec", setupDemo},
}

// usageError is a command line mistake: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// fileError is a failure reading a file: exit status 1, one line.
type fileError struct {
	file string
	err  error
}

func (e *fileError) Error() string {
	hint := ""
	if errors.Is(e.err, column.ErrLimit) {
		hint = " (raise --max-memory, or 0 for no bound)"
	}
	if pe, ok := e.err.(*column.PageError); ok && pe.Page < 0 {
		// An error about a whole column chunk, before any page.
		return fmt.Sprintf("%s: column %s, row group %d: %v%s", e.file, pe.Column, pe.RowGroup, pe.Err, hint)
	}
	return e.file + ": " + e.err.Error() + hint
}
func (e *fileError) Unwrap() error { return e.err }

// run is the whole command: it parses args (without the program name),
// writes to stdout and stderr and returns the exit status. It never panics:
// a panic is reported as one line and exit status 1.
func run(args []string, stdout, stderr io.Writer) (status int) {
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(stderr, "pqcodec: internal error: %s\n", oneLine(fmt.Sprint(v)))
			status = exitError
		}
	}()
	if len(args) == 0 {
		topUsage(stdout)
		return exitOK
	}
	var name string
	switch a := args[0]; {
	case a == "help" || a == "-h" || a == "-help" || a == "--help":
		if len(args) > 1 {
			return run([]string{args[1], "--help"}, stdout, stderr)
		}
		topUsage(stdout)
		return exitOK
	case strings.HasPrefix(a, "-"):
		fmt.Fprintf(stderr, "pqcodec: %s before a command\n", a)
		topUsage(stderr)
		return exitUsage
	default:
		name, args = a, args[1:]
	}
	var cmd *command
	for i := range commands {
		if commands[i].name == name {
			cmd = &commands[i]
		}
	}
	if cmd == nil {
		fmt.Fprintf(stderr, "pqcodec: unknown command %q\n", name)
		topUsage(stderr)
		return exitUsage
	}
	fs := flag.NewFlagSet("pqcodec "+cmd.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	do := cmd.setup(fs)
	positional, err := parseArgs(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		commandUsage(stdout, cmd, fs)
		return exitOK
	}
	if err == nil {
		err = do(positional, stdout, stderr)
	}
	var ue *usageError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "pqcodec %s: %s\n", cmd.name, oneLine(ue.msg))
		fmt.Fprintf(stderr, "usage: pqcodec %s %s (pqcodec %s --help for details)\n", cmd.name, cmd.args, cmd.name)
		return exitUsage
	}
	fmt.Fprintf(stderr, "pqcodec: %s\n", oneLine(err.Error()))
	return exitError
}

// parseArgs parses flags anywhere among args (the flag package stops at the
// first non-flag) and returns the other arguments. Arguments after "--" are
// all positional.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, usagef("%v", err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(positional, rest...), nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// oneLine joins the lines of s, so that every error is one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}

func topUsage(w io.Writer) {
	fmt.Fprintf(w, "pqcodec: Parquet encodings and codecs in Go\n\nusage:\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  pqcodec %s %s\n      %s\n", c.name, c.args, c.summary)
	}
	fmt.Fprintf(w, "\npqcodec COMMAND --help (or pqcodec help COMMAND) describes a command and its flags.\n"+
		"Flags may come before or after FILE; --flag and -flag are the same.\n"+
		"Exit status: 0 success, 1 unreadable file, 2 usage error.\n")
}

func commandUsage(w io.Writer, c *command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: pqcodec %s %s\n\n%s.\n", c.name, c.args, upperFirst(c.summary))
	if doc := longHelp[c.name]; doc != "" {
		fmt.Fprintf(w, "\n%s\n", doc)
	}
	writeFlags(w, fs)
}

// writeFlags lists the flags of fs as flag.PrintDefaults does, but with
// the double dash the usage lines and the documentation use.
func writeFlags(w io.Writer, fs *flag.FlagSet) {
	first := true
	fs.VisitAll(func(f *flag.Flag) {
		if first {
			fmt.Fprintf(w, "\nflags:\n")
			first = false
		}
		name, usage := flag.UnquoteUsage(f)
		line := "  --" + f.Name
		if name != "" {
			line += " " + name
		}
		line += "\n    \t" + strings.ReplaceAll(usage, "\n", "\n    \t")
		if def := f.DefValue; def != "" && def != "false" && def != "0" {
			line += " (default " + def + ")"
		}
		fmt.Fprintln(w, line)
	})
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// longHelp holds each command's description for --help.
var longHelp = map[string]string{
	"convert": convertHelp,
	"demo": `The demo generates columns in memory (ids, timestamps, prices, quantities,
sensor readings, flags, short and long strings), encodes each with every
encoding that applies to its type, compresses the pages with every codec,
then decompresses, decodes and checks every value against the input. It
prints one table: per codec and encoding, the compressed size, the ratio to
the PLAIN uncompressed size, and read speed (decompress + decode) in MB/s of
PLAIN data. Set PQCODEC_DEMO_SHORT=1 for the quick mode of --short.`,
	"schema": `schema prints the schema as parquet-java's MessageType.toString does (the
text of parquet-cli schema and parquet-tools schema): one field per line with
its repetition, physical type, name, logical type annotation in parentheses
and field id after " = ". A converted type without a logical type prints as
parquet-java reads it (UTF8 as STRING, TIMESTAMP_MILLIS as
TIMESTAMP(MILLIS,true), INT_8 as INTEGER(8,true)). --json prints the schema
tree with each node's repetition, type, annotations and levels.`,
	"inspect": `inspect reads the footer and walks every page header. It prints the file's
size, writer, rows and key-value metadata (long values shortened), the schema
as pqcodec schema does, the row groups, and for every column chunk: physical
type, codec, encodings, page counts by page type (data pages v1 and v2
separately), compressed and uncompressed size and their ratio, whether it has
a page index (column and offset index) and a bloom filter (with its size), and
its statistics: min .. max as cat prints values, and the null count.
Statistics that readers cannot use (a min above its max, a bound of the wrong
size) say so. --json prints all of it, key-value values whole.`,
	"meta": `meta is inspect under parquet-cli's name: see pqcodec inspect --help.`,
	"pages": `pages walks every page header of every column chunk (or of the leaf columns
--columns names, by dotted path) and prints one line per page: row group,
column, page number within the chunk (the dictionary page is 0 when there is
one), file offset, page type, encoding, number of values, nulls and rows
(DATA_PAGE_V2 headers give them), compressed and uncompressed size, and the
page header's statistics as inspect prints them.`,
	"rowcount": `rowcount prints the number of rows the footer declares (FileMetaData
num_rows). --json prints it with the rows of each row group.`,
	"size": `size prints the file's size, the compressed and uncompressed sizes of its
column chunks (page headers included) and their ratio, and the size of the
thrift footer, each in human units and in bytes (kB, MB, GB are powers of
1000). --json prints the byte counts.`,
	"cat": `cat writes one JSON object per row, keyed by top-level field name, with
logical values: DATE "2024-01-31"; TIME "12:34:56.789"; TIMESTAMP in RFC 3339
with its unit's fraction digits, "2024-01-31T12:34:56.789000Z" when adjusted
to UTC and without a zone when not; INT96 as a timestamp in nanoseconds
without a zone; DECIMAL an exact decimal number (12.30); UUID
"123e4567-e89b-12d3-a456-426614174000"; INTERVAL "1 year 2 months 3 days
00:00:01.5"; unsigned integers unsigned; FLOAT16 a number; STRING, ENUM and
JSON strings; other byte arrays lowercase hex. Floats are shortest
round-trip decimals, with "NaN", "Infinity" and "-Infinity" as strings.
Lists are arrays (null list null, empty list []), maps arrays of
{"key","value"} objects, groups objects, nulls null. The package
documentation of rows states every rule.

--raw prints physical values instead: INT32/INT64 exact integers (dates,
times, timestamps and decimals as stored), INT96 and every byte array that
is not a string as lowercase hex.

--skip N starts at row N without reading the pages before it.`,
	"head": `head is cat with --limit 10: see pqcodec cat --help.`,
	"bench": `bench reads every column chunk N times. Decompression is timed alone by walking
the pages and decompressing them; the full read (decompress, decode levels and
values, resolve dictionaries) is timed separately, and decode is the
difference. Speeds are in MB/s of uncompressed page bytes and in millions of
values (levels included) per second. With --workers N, bench also times
decoding the whole file with the chunks of each row group read concurrently
(column.File.ReadRowGroup) by N goroutines and by one, interleaved, and
reports both and the speedup. Progress goes to stderr when the run takes more
than a second and stderr is a terminal.`,
	"rewrite": `rewrite decompresses every page with the codec it was written with and
compresses it with the target codec, without decoding values; schema,
statistics, encodings, key-value metadata, page indexes and bloom filters are
kept, offsets and sizes updated (see package recompress). Pages are
recompressed by --workers goroutines and written in order: the output does
not depend on the number of workers.

The output is written to a temporary file beside OUT, synced, checked with
--verify (every page of the output must decompress to the bytes of the input
page), and renamed over OUT only then; on any error or interruption OUT is
left as it was and the temporary file removed. OUT may not be IN, and the
directory of OUT must exist. A temporary file that a killed rewrite left is
removed by the next rewrite of the same OUT (one of a rewrite still running,
which holds a lock on it, is not).

When IN is a directory (or a symbolic link to one), every .parquet file under
it is rewritten to the same relative path under OUT, --jobs files at a time
within --max-memory. Outputs that are already complete (written with the same
--codec, --columns, --crc and re-encoding flags, recorded in their key-value
metadata under pqcodec.rewrite; same rows and row groups; and verified when
--verify is on) are skipped, so an interrupted run can be started again.
Failures are listed at the end and make the exit status 1.

Encryption (Parquet Modular Encryption): --footer-key, --column-key and
--aad-prefix are the keys of an encrypted IN, as for cat. The --encrypt-*
flags encrypt OUT: --encrypt-footer-key (required for any of them; it
encrypts every column unless --encrypt-column-key names some, each with its
own key or "footer"), --encrypt-footer-key-id and --encrypt-column-key-id
(key metadata for key retrievers), --encrypt-algorithm gcm|ctr,
--encrypt-plaintext-footer, --encrypt-aad-prefix and
--encrypt-aad-prefix-not-stored. Keys of IN alone decrypt a file, keys on
both sides re-key it, --encrypt-* alone encrypts a plaintext file; pages are
decrypted and encrypted again as modules, never decoded, and --verify reads
both sides with their keys. With any of these flags, directory mode rewrites
every file (none is skipped as complete).

A summary line per file gives the bytes in and out, their ratio, the pages
and MB/s of input.`,
}

// openFile opens the Parquet file at path. The caller closes fh.
func openFile(path string, opts ...column.Option) (f *column.File, fh *os.File, size int64, err error) {
	if fh, err = os.Open(path); err != nil {
		return nil, nil, 0, err
	}
	st, err := fh.Stat()
	if err == nil && st.IsDir() {
		err = errors.New("is a directory")
	}
	if err == nil {
		size = st.Size()
		f, err = column.Open(fh, size, opts...)
	}
	if err != nil {
		fh.Close()
		return nil, nil, 0, &fileError{path, err}
	}
	return f, fh, size, nil
}

// oneFile returns the single FILE argument of a command.
func oneFile(positional []string) (string, error) {
	switch len(positional) {
	case 0:
		return "", usagef("missing FILE")
	case 1:
		return positional[0], nil
	}
	return "", usagef("one FILE expected, got %d arguments", len(positional))
}
