package main

import (
	"bufio"
	"errors"
	"flag"
	"io"
	"strings"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/rows"
)

func setupCat(fs *flag.FlagSet) func([]string, io.Writer, io.Writer) error {
	return setupRows(fs, -1)
}

// setupHead is cat with a default --limit of 10, as parquet-cli's and
// pqrs's head.
func setupHead(fs *flag.FlagSet) func([]string, io.Writer, io.Writer) error {
	return setupRows(fs, 10)
}

// setupRows defines the flags of cat and head, whose only difference is
// the default of --limit.
func setupRows(fs *flag.FlagSet, defaultLimit int64) func([]string, io.Writer, io.Writer) error {
	columns := fs.String("columns", "", "comma-separated `paths` to print (top-level fields or dotted paths such as a.b), in that order (default all)")
	limit := fs.Int64("limit", defaultLimit, "print at most `N` rows (negative: all)")
	skip := fs.Int64("skip", 0, "skip the first `N` rows (pages before them are not read)")
	raw := fs.Bool("raw", false, "print physical values (integers for dates, timestamps and decimals, hex for INT96, UUIDs and other byte arrays), as pqcodec cat did before logical types")
	maxMemory := memoryFlag(fs)
	keys := addKeyFlags(fs) // encryption: keys.go
	return func(positional []string, stdout, _ io.Writer) error {
		path, err := oneFile(positional)
		if err != nil {
			return err
		}
		if *skip < 0 {
			return usagef("--skip must not be negative")
		}
		var names []string
		if *columns != "" {
			for _, c := range strings.Split(*columns, ",") {
				if c = strings.TrimSpace(c); c == "" {
					return usagef("empty name in --columns %q", *columns)
				}
				names = append(names, c)
			}
		}
		keyOpt, err := keys.option()
		if err != nil {
			return err
		}
		f, fh, _, err := openFile(path, column.WithMaxMemory(int64(*maxMemory)), keyOpt)
		if err != nil {
			return err
		}
		defer fh.Close()
		opts := []rows.Option{rows.WithRange(*skip, *limit)}
		if names != nil {
			opts = append(opts, rows.WithColumns(names...))
		}
		if *raw {
			opts = append(opts, rows.WithRaw())
		}
		rd, err := rows.NewReader(f, opts...)
		if errors.Is(err, rows.ErrNoColumn) {
			return usagef("%s: %v", path, err)
		}
		if err != nil {
			return &fileError{path, err}
		}
		return cat(stdout, rd, path)
	}
}

// cat writes the rows of rd as JSON Lines. Rows are streamed (see
// [rows.Reader.WriteRow]): a huge row needs no more memory than its largest
// value.
func cat(stdout io.Writer, rd *rows.Reader, path string) error {
	w := &catWriter{w: bufio.NewWriterSize(stdout, 64<<10)}
	for {
		err := rd.WriteRow(w)
		if errors.Is(err, io.EOF) {
			break
		}
		if w.err != nil {
			return w.err
		}
		if err != nil {
			w.w.Flush()
			return &fileError{path, err}
		}
	}
	return w.w.Flush()
}

// catWriter is cat's output, which remembers its error so that cat tells
// it from the file's.
type catWriter struct {
	w   *bufio.Writer
	err error
}

func (c *catWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}
