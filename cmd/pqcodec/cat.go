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
	columns := fs.String("columns", "", "comma-separated top-level `fields` to print, in that order (default all)")
	limit := fs.Int64("limit", -1, "print at most `N` rows (negative: all)")
	maxMemory := memoryFlag(fs)
	keys := addKeyFlags(fs) // encryption: keys.go
	return func(positional []string, stdout, _ io.Writer) error {
		path, err := oneFile(positional)
		if err != nil {
			return err
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
		var opts []rows.Option
		if names != nil {
			opts = append(opts, rows.WithColumns(names...))
		}
		rd, err := rows.NewReader(f, opts...)
		if errors.Is(err, rows.ErrNoColumn) {
			return usagef("%s: %v", path, err)
		}
		if err != nil {
			return &fileError{path, err}
		}
		return cat(stdout, rd, path, *limit)
	}
}

// cat writes the rows of rd as JSON Lines, at most limit when it is not
// negative. Rows are streamed (see [rows.Reader.WriteRow]): a huge row
// needs no more memory than its largest value.
func cat(stdout io.Writer, rd *rows.Reader, path string, limit int64) error {
	w := &catWriter{w: bufio.NewWriterSize(stdout, 64<<10)}
	for n := int64(0); limit < 0 || n < limit; n++ {
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
