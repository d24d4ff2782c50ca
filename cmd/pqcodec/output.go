package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// checkOutput refuses an output path that names the input (in, when not
// nil) or a directory. An out that does not exist yet passes.
func checkOutput(out string, in fs.FileInfo) error {
	ost, err := os.Stat(out)
	if err != nil {
		return nil
	}
	if in != nil && os.SameFile(in, ost) {
		return usagef("%s: refusing to overwrite the input", out)
	}
	if ost.IsDir() {
		return &fileError{out, errors.New("is a directory")}
	}
	return nil
}

// openInput opens in, the input of a rewrite to out, and checks out with
// [checkOutput].
func openInput(in, out string) (*os.File, fs.FileInfo, error) {
	src, err := os.Open(in)
	if err != nil {
		return nil, nil, &fileError{in, err}
	}
	sst, err := src.Stat()
	if err == nil {
		err = checkOutput(out, sst)
	} else {
		err = &fileError{in, err}
	}
	if err != nil {
		src.Close()
		return nil, nil, err
	}
	return src, sst, nil
}

// outputFile is the temporary file that becomes an output of rewrite, merge
// or convert once complete: it is written beside the output, synced, and
// renamed over it only by [outputFile.commit], so that on any error or
// interruption the output is left as it was.
type outputFile struct {
	*os.File
	out     string
	cleanup *cleanup
	done    bool
}

// createOutput creates the temporary file of out, with permissions perm,
// after removing the temporary files of earlier runs for out that were
// killed ([removeStale]). The file is locked while it exists and removed on
// interruption (cleanup.createTemp). As cp and mv do, the output's
// directory must exist; directory mode creates the directories below OUT.
// The caller defers [outputFile.abort].
func createOutput(out string, perm fs.FileMode, cleanup *cleanup) (*outputFile, error) {
	dir := filepath.Dir(out)
	if dst, err := os.Stat(dir); err != nil || !dst.IsDir() {
		if err == nil || errors.Is(err, fs.ErrNotExist) {
			err = errors.New("no such directory for the output")
		}
		return nil, &fileError{dir, err}
	}
	removeStale(out)
	tmp, err := cleanup.createTemp(dir, "."+filepath.Base(out)+".tmp-*")
	if err != nil {
		return nil, &fileError{out, err}
	}
	o := &outputFile{File: tmp, out: out, cleanup: cleanup}
	if err := tmp.Chmod(perm); err != nil {
		o.abort()
		return nil, &fileError{out, err}
	}
	return o, nil
}

// abort closes and removes the temporary file unless commit renamed it
// over the output; it may be called more than once.
func (o *outputFile) abort() {
	if o.done {
		return
	}
	o.done = true
	o.Close()
	os.Remove(o.Name())
	o.cleanup.remove(o.Name())
}

// commit syncs the temporary file, runs verify on it (when not nil), and
// renames it over the output. On any error the temporary file is removed
// and the error names the output.
func (o *outputFile) commit(verify func() error) error {
	err := o.Sync()
	if err == nil && verify != nil {
		if err = verify(); err != nil {
			err = fmt.Errorf("verification failed: %w", err)
		}
	}
	if err == nil {
		err = o.Close()
	}
	if err == nil {
		err = os.Rename(o.Name(), o.out)
	}
	if err != nil {
		o.abort()
		return &fileError{o.out, err}
	}
	o.done = true
	o.cleanup.remove(o.Name())
	syncDir(filepath.Dir(o.out))
	return nil
}
