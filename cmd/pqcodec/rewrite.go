package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/recompress"
	"github.com/pqcodec/pqcodec/reencode"
)

// rewriteFlags are the options of pqcodec rewrite.
type rewriteFlags struct {
	codec   string
	columns string
	workers int
	jobs    int
	memory  byteSize // --max-memory: bytes of pages in flight
	verify  bool
	crc     string
	srcCRC  bool
	crypt   rewriteCrypt  // encryption: rewrite_keys.go
	re      reencodeFlags // decode and encode again (reencode.go)
}

func setupRewrite(fs *flag.FlagSet) func([]string, io.Writer, io.Writer) error {
	var f rewriteFlags
	fs.StringVar(&f.codec, "codec", "zstd", "target `codec[:level]` of every column (uncompressed, snappy, gzip, lzo, brotli, lz4, zstd, lz4_raw, or keep)")
	fs.StringVar(&f.columns, "columns", "", "per-column targets, `path=codec[:level],...` (dotted leaf paths; keep leaves a column as it is)")
	fs.IntVar(&f.workers, "workers", runtime.GOMAXPROCS(0), "`N` goroutines recompressing pages of a file")
	fs.IntVar(&f.jobs, "jobs", 2, "directory mode: `N` files rewritten at the same time")
	f.memory = recompress.DefaultMaxMemory
	fs.Var(&f.memory, "max-memory", "bound the pages in flight to `SIZE` bytes (units KiB, MiB, GiB, KB, MB, GB; shared by the files of a directory)")
	fs.BoolVar(&f.verify, "verify", true, "re-read the output and check every page decompresses to the input page's bytes")
	fs.StringVar(&f.crc, "crc", "keep", "page checksums: `keep|add|drop`")
	fs.BoolVar(&f.srcCRC, "source-crc", true, "check the checksum of source pages that carry one; false rewrites a page that does not match it (with --crc keep or add, under a fresh checksum)")
	addRewriteCryptFlags(fs, &f.crypt) // encryption: rewrite_keys.go
	f.re.define(fs)
	return func(positional []string, stdout, stderr io.Writer) error {
		if len(positional) != 2 {
			return usagef("IN and OUT expected, got %d arguments", len(positional))
		}
		opts, err := f.options()
		if err != nil {
			return err
		}
		in, out := positional[0], positional[1]
		st, err := os.Stat(in)
		if err != nil {
			return &fileError{in, err}
		}
		cleanup := installCleanup()
		defer cleanup.stop()
		if st.IsDir() {
			return rewriteDir(in, out, &f, opts, cleanup, stdout, stderr)
		}
		if f.re.active() {
			res, err := reencodeFile(in, out, &f, opts, cleanup, int64(f.memory))
			if err != nil {
				return err
			}
			fmt.Fprintln(stdout, res.line)
			return nil
		}
		p := newProgress(stderr)
		res, err := rewriteFile(in, out, &f, append(opts, progressOption(p, in)), cleanup)
		p.done()
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, summary(in, out, res, f.verify))
		return nil
	}
}

func (f *rewriteFlags) options() ([]recompress.Option, error) {
	t, err := recompress.ParseTarget(f.codec)
	if err != nil {
		return nil, usagef("--codec %q: %v", f.codec, err)
	}
	if f.workers < 1 || f.jobs < 1 || f.memory < 1 {
		return nil, usagef("--workers, --jobs and --max-memory must be positive")
	}
	opts := []recompress.Option{recompress.WithCodec(t), recompress.WithWorkers(f.workers), recompress.WithSourceChecksums(f.srcCRC)}
	if f.columns != "" {
		for _, kv := range strings.Split(f.columns, ",") {
			path, target, ok := strings.Cut(strings.TrimSpace(kv), "=")
			if !ok || path == "" {
				return nil, usagef("--columns: %q is not path=codec[:level]", kv)
			}
			ct, err := recompress.ParseTarget(target)
			if err != nil {
				return nil, usagef("--columns %s: %v", path, err)
			}
			opts = append(opts, recompress.WithColumnCodec(path, ct))
		}
	}
	opts = append(opts, recompress.WithKeyValue(targetKey, f.description()))
	copts, err := f.crypt.options() // encryption: rewrite_keys.go
	if err != nil {
		return nil, err
	}
	opts = append(opts, copts...)
	switch f.crc {
	case "keep":
	case "add":
		opts = append(opts, recompress.WithChecksums(recompress.CRCAdd))
	case "drop":
		opts = append(opts, recompress.WithChecksums(recompress.CRCDrop))
	default:
		return nil, usagef("--crc %q: want keep, add or drop", f.crc)
	}
	return opts, nil
}

// fileResult is the outcome of rewriting one file.
type fileResult struct {
	*recompress.Result
	elapsed time.Duration
	skipped bool
	line    string // the summary line, when not [summary]'s (re-encoding)
}

// rewriteFile rewrites in to out through a temporary file beside out,
// synced and renamed over out only once complete (and verified). On any
// error out is left as it was and the temporary file is removed. The
// temporary file is locked while it exists ([lockTemp]); the temporary files
// of earlier rewrites of out that were killed are removed first
// ([removeStale]). The directory of out must exist.
func rewriteFile(in, out string, f *rewriteFlags, opts []recompress.Option, cleanup *cleanup) (*fileResult, error) {
	start := time.Now()
	src, sst, err := openInput(in, out)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	tmp, err := createOutput(out, sst.Mode().Perm()|0o200, cleanup)
	if err != nil {
		return nil, err
	}
	defer tmp.abort()
	res, err := recompress.Rewrite(destWriter{tmp.File}, src, sst.Size(), opts...)
	if err != nil {
		var w *writeError
		if errors.As(err, &w) {
			return nil, &fileError{out, err}
		}
		return nil, &fileError{in, err}
	}
	var verify func() error
	if f.verify {
		verify = func() error {
			return f.crypt.verify(src, sst.Size(), tmp.File, res.BytesOut) // encryption: rewrite_keys.go
		}
	}
	if err := tmp.commit(verify); err != nil {
		return nil, err
	}
	return &fileResult{Result: res, elapsed: time.Since(start)}, nil
}

// writeError marks errors of the destination (see rewriteFile).
type writeError struct{ err error }

func (e *writeError) Error() string { return e.err.Error() }
func (e *writeError) Unwrap() error { return e.err }

// destWriter marks the errors of writing the destination.
type destWriter struct{ w io.Writer }

func (d destWriter) Write(p []byte) (int, error) {
	n, err := d.w.Write(p)
	if err != nil {
		err = &writeError{err}
	}
	return n, err
}

// syncDir makes a rename durable; errors are ignored (not every file system
// can sync a directory).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

func progressOption(p *progress, name string) recompress.Option {
	return recompress.WithProgress(func(done, total int64) {
		p.update("rewrite %s: %.0f%%, %s of %s", filepath.Base(name), 100*float64(done)/float64(max(total, 1)),
			sizeText(done), sizeText(total))
	})
}

func summary(in, out string, r *fileResult, verified bool) string {
	v := ""
	if verified {
		v = ", verified"
	}
	return fmt.Sprintf("%s -> %s: %s -> %s (ratio %.3f), %d pages, %.1f MB/s%s", in, out,
		sizeText(r.BytesIn), sizeText(r.BytesOut), float64(r.BytesOut)/float64(max(r.BytesIn, 1)), r.Pages,
		float64(r.BytesIn)/1e6/max(r.elapsed.Seconds(), 1e-9), v)
}

// rewriteDir rewrites every .parquet file under in to the same relative
// path under out, f.jobs files at a time, skipping outputs that are
// already complete. It prints one line per file and a list of failures.
func rewriteDir(in, out string, f *rewriteFlags, opts []recompress.Option, cleanup *cleanup, stdout, stderr io.Writer) error {
	// IN may be a symbolic link to a directory (WalkDir does not follow
	// its root): walk what it points to. Links below IN are not followed.
	root, err1 := filepath.EvalSymlinks(in)
	absIn, err2 := filepath.Abs(root)
	absOut, err3 := resolvedAbs(out)
	if err := errors.Join(err1, err2, err3); err != nil {
		return &fileError{in, err}
	}
	if absIn == absOut || strings.HasPrefix(absOut, absIn+string(filepath.Separator)) {
		return usagef("OUT %s must not be IN or inside it", out)
	}
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && strings.HasSuffix(d.Name(), ".parquet") {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		return &fileError{in, err}
	}
	sort.Strings(files)
	jobs := min(f.jobs, max(len(files), 1))
	budget := max(int64(f.memory)/int64(jobs), 1)
	opts = append(opts, recompress.WithMaxMemory(budget))
	one := func(src, dst string) (*fileResult, error) { return rewriteFile(src, dst, f, opts, cleanup) }
	if f.re.active() {
		one = func(src, dst string) (*fileResult, error) { return reencodeFile(src, dst, f, opts, cleanup, budget) }
	}
	want := f.description()
	var (
		mu       sync.Mutex
		failed   []string
		total    fileResult
		done     int
		skipped  int
		next     = make(chan string)
		wg       sync.WaitGroup
		started  = time.Now()
		progress = newProgress(stderr)
	)
	total.Result = new(recompress.Result)
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for rel := range next {
				src, dst := filepath.Join(in, rel), filepath.Join(out, rel)
				var res *fileResult
				err := os.MkdirAll(filepath.Dir(dst), 0o755)
				if err == nil {
					// Also beside an output that is already done.
					removeStale(dst)
				}
				if err == nil && !f.crypt.active() && complete(src, dst, want, f) { // encryption: never skipped
					res = &fileResult{skipped: true}
				} else if err == nil {
					res, err = one(src, dst)
				}
				mu.Lock()
				done++
				switch {
				case err != nil:
					failed = append(failed, oneLine(err.Error()))
				case res.skipped:
					skipped++
				default:
					total.BytesIn += res.BytesIn
					total.BytesOut += res.BytesOut
					total.Pages += res.Pages
					if res.line == "" {
						res.line = summary(src, dst, res, f.verify)
					}
					fmt.Fprintln(stdout, res.line)
				}
				progress.update("rewrite: %d/%d files, %d failed", done, len(files), len(failed))
				mu.Unlock()
			}
		}()
	}
	for _, rel := range files {
		next <- rel
	}
	close(next)
	wg.Wait()
	progress.done()
	total.elapsed = time.Since(started)
	pages := fmt.Sprintf(", %d pages", total.Pages)
	if f.re.active() {
		pages = "" // not counted by package reencode
	}
	fmt.Fprintf(stdout, "%d files: %d rewritten, %d already done, %d failed; %s -> %s (ratio %.3f)%s, %.1f MB/s\n",
		len(files), len(files)-skipped-len(failed), skipped, len(failed), sizeText(total.BytesIn), sizeText(total.BytesOut),
		float64(total.BytesOut)/float64(max(total.BytesIn, 1)), pages,
		float64(total.BytesIn)/1e6/max(total.elapsed.Seconds(), 1e-9))
	if len(failed) > 0 {
		sort.Strings(failed)
		for _, e := range failed {
			fmt.Fprintf(stderr, "pqcodec: FAILED %s\n", e)
		}
		return &silentError{fmt.Errorf("%d of %d files failed", len(failed), len(files))}
	}
	return nil
}

// silentError is an exit-status-1 error whose details were already
// printed.
type silentError struct{ err error }

func (e *silentError) Error() string { return e.err.Error() }

// complete reports whether dst is already a finished rewrite of src with
// the options described by want ([rewriteFlags.description], recorded in
// dst's key-value metadata under targetKey): a Parquet file with the rows
// and row groups of src (other row groups under --row-group-size), not
// older than src, written with the same codecs, levels, checksum mode and
// re-encoding flags, and, when --verify is set, whose pages verify
// (recompress.Verify) or, re-encoded, whose rows are src's
// (reencode.Verify). Outputs are renamed into place only once complete, so
// this holds unless the file was changed since.
func complete(src, dst, want string, f *rewriteFlags) bool {
	o, err := os.Open(dst)
	if err != nil {
		return false
	}
	defer o.Close()
	s, err := os.Open(src)
	if err != nil {
		return false
	}
	defer s.Close()
	ost, err1 := o.Stat()
	sst, err2 := s.Stat()
	if err1 != nil || err2 != nil || ost.ModTime().Before(sst.ModTime()) {
		return false
	}
	om, err1 := format.ReadFooter(o, ost.Size())
	sm, err2 := format.ReadFooter(s, sst.Size())
	if err1 != nil || err2 != nil || om.NumRows != sm.NumRows ||
		len(om.RowGroups) != len(sm.RowGroups) && f.re.rowGroupSize == 0 {
		return false
	}
	if got, ok := keyValue(om, targetKey); !ok || got != want {
		return false
	}
	switch {
	case !f.verify:
		return true
	case f.re.active():
		return reencode.Verify(context.Background(), s, sst.Size(), o, ost.Size()) == nil
	}
	return recompress.Verify(s, sst.Size(), o, ost.Size(), nil) == nil
}

// targetKey is the key-value metadata key under which rewrite records the
// options an output was written with ([rewriteFlags.description]).
const targetKey = "pqcodec.rewrite"

// keyValue returns the value of key in m's key-value metadata (the last
// entry, if several).
func keyValue(m *format.FileMetaData, key string) (string, bool) {
	v, ok := "", false
	for _, kv := range m.KeyValueMetadata {
		if kv.Key == key && kv.Value != nil {
			v, ok = *kv.Value, true
		}
	}
	return v, ok
}

// description returns the options of f that decide the output's bytes,
// normalised: "codec=ZSTD:19 columns=a.b=SNAPPY,c=keep crc=keep". The
// codecs are spelled as parsed, so "zstd" and "zstd:3" (the same default
// level) differ and the second run rewrites again. The re-encoding flags
// follow when any is given ([reencodeFlags.description]). f must have passed
// [rewriteFlags.options].
func (f *rewriteFlags) description() string {
	t, _ := recompress.ParseTarget(f.codec)
	var cols []string
	if f.columns != "" {
		for _, kv := range strings.Split(f.columns, ",") {
			path, target, _ := strings.Cut(strings.TrimSpace(kv), "=")
			ct, _ := recompress.ParseTarget(target)
			cols = append(cols, path+"="+ct.String())
		}
	}
	sort.Strings(cols)
	d := fmt.Sprintf("codec=%v columns=%s crc=%s", t, strings.Join(cols, ","), f.crc)
	if f.re.active() {
		d += " " + f.re.description()
	}
	return d
}

// resolvedAbs returns the absolute form of path with the symbolic links of
// its longest existing prefix resolved.
func resolvedAbs(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	var rest []string
	for p := abs; ; p = filepath.Dir(p) {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(append([]string{r}, rest...)...), nil
		}
		if filepath.Dir(p) == p {
			return abs, nil
		}
		rest = append([]string{filepath.Base(p)}, rest...)
	}
}

// cleanup removes the temporary files in progress when the process is
// interrupted.
type cleanup struct {
	mu    sync.Mutex
	files map[string]bool
	sig   chan os.Signal
}

func installCleanup() *cleanup {
	c := &cleanup{files: make(map[string]bool), sig: make(chan os.Signal, 1)}
	signal.Notify(c.sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		s, ok := <-c.sig
		if !ok {
			return
		}
		c.mu.Lock()
		for f := range c.files {
			os.Remove(f)
		}
		os.Exit(128 + int(s.(syscall.Signal)))
	}()
	return c
}

// createTemp creates a temporary file as os.CreateTemp does, locks it with
// lockTemp, and registers it for removal, all under the lock the signal
// handler takes, so that an interruption never falls between them. A file
// that another rewrite's [removeStale] locked or removed in the instant
// between its creation and its lock is given up for a new one.
func (c *cleanup) createTemp(dir, pattern string) (*os.File, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for attempt := 0; ; attempt++ {
		f, err := os.CreateTemp(dir, pattern)
		if err != nil {
			return nil, err
		}
		err = lockTemp(f)
		if err == nil {
			st, err1 := f.Stat()
			named, err2 := os.Stat(f.Name())
			if err1 == nil && err2 == nil && os.SameFile(st, named) {
				c.files[f.Name()] = true
				return f, nil
			}
		}
		if err != nil && err != errLocked || attempt == 9 {
			// A file system without locks: the file stays unlocked,
			// which removeStale takes for a running rewrite's.
			c.files[f.Name()] = true
			return f, nil
		}
		f.Close()
	}
}

// errLocked is returned by lockTemp for a file locked by another rewrite.
var errLocked = errors.New("locked by a running rewrite")

// removeStale removes the temporary files that rewrites of out killed
// before they could clean up (kill -9, a crash, a power cut) left beside
// it: the files named as [rewriteFile] names them whose lock ([lockTemp])
// no process holds. Those of a rewrite still running, which holds its lock
// until it exits, are kept. It returns the names removed. Where locks do
// not exist it removes nothing.
func removeStale(out string) []string {
	if !canTellStale {
		return nil
	}
	dir, prefix := filepath.Dir(out), "."+filepath.Base(out)+".tmp-"
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		if lockTemp(f) == nil {
			// Locked by us now: no rewrite owns it; remove it while
			// holding the lock, so that none can take it meanwhile.
			st, err1 := f.Stat()
			named, err2 := os.Lstat(p)
			if err1 == nil && err2 == nil && os.SameFile(st, named) && os.Remove(p) == nil {
				removed = append(removed, p)
			}
		}
		f.Close()
	}
	return removed
}

func (c *cleanup) remove(f string) {
	c.mu.Lock()
	delete(c.files, f)
	c.mu.Unlock()
}

func (c *cleanup) stop() {
	signal.Stop(c.sig)
	close(c.sig)
}
