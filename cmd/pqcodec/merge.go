package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/pqcodec/pqcodec/merge"
)

// mergeFlags are the options of pqcodec merge.
type mergeFlags struct {
	workers int
	memory  byteSize // --max-memory
	minSize byteSize // --min-row-group-size
	verify  bool
}

func setupMerge(fs *flag.FlagSet) func([]string, io.Writer, io.Writer) error {
	var f mergeFlags
	fs.IntVar(&f.workers, "workers", runtime.GOMAXPROCS(0), "`N` goroutines reading and combining row groups")
	f.memory = merge.DefaultMaxMemory
	fs.Var(&f.memory, "max-memory", "bound the row groups in flight to `SIZE` bytes (units KiB, MiB, GiB, KB, MB, GB)")
	f.minSize = merge.DefaultMinRowGroupSize
	fs.Var(&f.minSize, "min-row-group-size", "combine runs of row groups whose compressed size is below `SIZE` into larger ones, decoding and encoding them again; 0 copies every row group page by page")
	fs.BoolVar(&f.verify, "verify", true, "re-read the output: copied pages byte for byte, combined row groups row for row")
	return func(positional []string, stdout, stderr io.Writer) error {
		if len(positional) < 2 {
			return usagef("OUT and at least one IN expected, got %d arguments", len(positional))
		}
		if f.workers < 1 || f.memory < 1 || f.minSize < 0 {
			return usagef("--workers and --max-memory must be positive, --min-row-group-size not negative")
		}
		out := positional[0]
		files, err := mergeInputs(positional[1:], out)
		if err != nil {
			return err
		}
		if len(files) == 0 {
			return usagef("no .parquet files in %s", strings.Join(positional[1:], " "))
		}
		cleanup := installCleanup()
		defer cleanup.stop()
		p := newProgress(stderr)
		opts := []merge.Option{
			merge.WithWorkers(f.workers), merge.WithMaxMemory(int64(f.memory)), merge.WithMinRowGroupSize(int64(f.minSize)),
			merge.WithProgress(func(done, total int64) {
				p.update("merge %d files: %.0f%%, %s of %s", len(files), 100*float64(done)/float64(max(total, 1)), sizeText(done), sizeText(total))
			}),
		}
		start := time.Now()
		res, err := mergeFiles(files, out, f.verify, opts, cleanup)
		p.done()
		if err != nil {
			return err
		}
		v := ""
		if f.verify {
			v = ", verified"
		}
		fmt.Fprintf(stdout, "%d files -> %s: %s -> %s, %d rows, %d row groups -> %d (%d copied, %d combined), %.1f MB/s%s\n",
			len(files), out, sizeText(res.BytesIn), sizeText(res.BytesOut), res.Rows, res.RowGroupsIn, res.RowGroupsOut,
			res.RowGroupsCopied, res.RowGroupsCombined, float64(res.BytesIn)/1e6/max(time.Since(start).Seconds(), 1e-9), v)
		if len(res.DroppedKeyValues) > 0 {
			fmt.Fprintf(stderr, "pqcodec merge: key-value metadata the inputs disagree on, left out: %s\n", strings.Join(res.DroppedKeyValues, ", "))
		}
		if res.DroppedPageIndexes+res.DroppedBloomFilters > 0 {
			fmt.Fprintf(stderr, "pqcodec merge: dropped %d page indexes and %d bloom filters that did not match their pages\n", res.DroppedPageIndexes, res.DroppedBloomFilters)
		}
		return nil
	}
}

// mergeInputs lists the inputs: each file as given, each directory's
// .parquet files below it in lexical order of their paths. OUT must not be
// one of them.
func mergeInputs(args []string, out string) ([]string, error) {
	absOut, err := resolvedAbs(out)
	if err != nil {
		return nil, &fileError{out, err}
	}
	if st, err := os.Stat(out); err == nil && st.IsDir() {
		return nil, &fileError{out, errors.New("is a directory")}
	}
	var files []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, &fileError{a, err}
		}
		if !st.IsDir() {
			files = append(files, a)
			continue
		}
		var found []string
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.Type().IsRegular() && strings.HasSuffix(d.Name(), ".parquet") {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, &fileError{a, err}
		}
		sort.Strings(found)
		files = append(files, found...)
	}
	for _, p := range files {
		if abs, err := resolvedAbs(p); err == nil && abs == absOut {
			return nil, usagef("%s: refusing to overwrite an input", out)
		}
	}
	return files, nil
}

// mergeFiles merges files into out through a temporary file beside it,
// synced and renamed over out once complete (and verified), as
// rewriteFile does: on any error or interruption out is left as it was.
func mergeFiles(files []string, out string, verify bool, opts []merge.Option, cleanup *cleanup) (*merge.Result, error) {
	inputs := make([]merge.Input, len(files))
	for i, p := range files {
		inputs[i] = merge.File(p)
	}
	tmp, err := createOutput(out, 0o644, cleanup)
	if err != nil {
		return nil, err
	}
	defer tmp.abort()
	res, err := merge.Merge(destWriter{tmp.File}, inputs, opts...)
	if err != nil {
		var w *writeError
		if errors.As(err, &w) {
			return nil, &fileError{out, err}
		}
		return nil, err
	}
	var check func() error
	if verify {
		check = func() error { return merge.Verify(context.Background(), tmp.File, res.BytesOut, inputs, res) }
	}
	if err := tmp.commit(check); err != nil {
		return nil, err
	}
	return res, nil
}

func init() {
	longHelp["merge"] = `merge writes the rows of every IN, in order, to OUT: the files as given, and
for a directory IN every .parquet file under it in lexical order of their
paths. Every input must have the same schema (field names, types,
repetitions, annotations and field ids; the root's name may differ); a
difference names both files and the first field that differs.

Row groups are copied page by page without decompressing or decoding: page
bytes, checksums and statistics as they are, offsets, page indexes and bloom
filters moved (see package merge). Runs of row groups whose compressed size
is below --min-row-group-size are decoded and written again as row groups of
at least that size, each column with the codec it had (a lone small row
group is copied); --min-row-group-size 0 copies everything. The footer keeps
the key-value metadata every input has alike (the keys left out are listed),
and the first input's created_by. Row groups are read and combined by
--workers goroutines within --max-memory and written in order: the output
does not depend on the number of workers.

The output is written to a temporary file beside OUT, synced, checked with
--verify (copied pages byte for byte against the inputs, combined row groups
row for row), and renamed over OUT only then; on any error or interruption
OUT is left as it was and the temporary file removed. OUT may not be an
input, and its directory must exist.`
}
