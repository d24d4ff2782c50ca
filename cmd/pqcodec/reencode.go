package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/recompress"
	"github.com/pqcodec/pqcodec/reencode"
	"github.com/pqcodec/pqcodec/writer"
)

// reencodeFlags are the flags of pqcodec rewrite that decode columns and
// encode them again (package reencode).
type reencodeFlags struct {
	encoding     string
	pageSize     byteSize
	pageVersion  int
	dictionary   optBool
	statistics   optBool
	pageIndex    optBool
	bloom        string
	rowGroupSize byteSize
}

// optBool is a boolean flag that remembers whether it was given.
type optBool struct{ set, on bool }

func (b *optBool) String() string {
	if !b.set {
		return ""
	}
	return strconv.FormatBool(b.on)
}

func (b *optBool) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	b.set, b.on = true, v
	return nil
}

func (b *optBool) IsBoolFlag() bool { return true }

func (r *reencodeFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&r.encoding, "encoding", "", "re-encode columns, `path=ENC,...` (PLAIN, RLE, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT, or RLE_DICTIONARY for a dictionary)")
	fs.Var(&r.pageSize, "page-size", "re-encode every column with data pages of `SIZE` bytes before compression")
	fs.IntVar(&r.pageVersion, "page-version", 0, "re-encode every column with data pages `1|2`")
	fs.Var(&r.dictionary, "dictionary", "re-encode every column with dictionaries on or off (`true|false`)")
	fs.Var(&r.statistics, "statistics", "re-encode every column with statistics on or off (`true|false`)")
	fs.Var(&r.pageIndex, "page-index", "re-encode every column with the column and offset indexes on or off (`true|false`)")
	fs.StringVar(&r.bloom, "bloom", "", "re-encode columns with a bloom filter, `path[:fpp],...` (fpp default 0.01, sized for the chunk's values)")
	fs.Var(&r.rowGroupSize, "row-group-size", "re-encode every column in row groups of `SIZE` compressed bytes")
}

// active reports whether any re-encoding flag was given.
func (r *reencodeFlags) active() bool {
	return r.encoding != "" || r.pageSize != 0 || r.pageVersion != 0 || r.dictionary.set || r.statistics.set ||
		r.pageIndex.set || r.bloom != "" || r.rowGroupSize != 0
}

// parseEncoding reads an encoding by its parquet.thrift name.
func parseEncoding(s string) (format.Encoding, error) {
	for e := format.Plain; e <= format.ByteStreamSplit; e++ {
		if strings.EqualFold(strings.TrimSpace(s), e.String()) {
			return e, nil
		}
	}
	return 0, fmt.Errorf("unknown encoding %q", s)
}

// options returns the options of reencode.Rewrite, and whether every
// column is re-encoded (otherwise the paths named are).
func (r *reencodeFlags) options(target recompress.Target) (opts []reencode.Option, all bool, paths []string, err error) {
	var every []writer.Option
	if r.pageSize != 0 {
		if r.pageSize < 1 {
			return nil, false, nil, usagef("--page-size must be positive")
		}
		every = append(every, writer.WithPageSize(int(r.pageSize)))
	}
	if r.pageVersion != 0 {
		every = append(every, writer.WithPageVersion(r.pageVersion))
	}
	if r.dictionary.set {
		every = append(every, writer.WithDictionary(r.dictionary.on))
	}
	if r.statistics.set {
		every = append(every, writer.WithStatistics(r.statistics.on))
	}
	if r.pageIndex.set {
		every = append(every, writer.WithPageIndex(r.pageIndex.on))
	}
	if target.Codec != recompress.Keep {
		every = append(every, writer.WithCodec(target.Codec))
		if target.Level != 0 {
			f, err := codecfactory.New(codecfactory.WithLevel(target.Codec, target.Level))
			if err != nil {
				return nil, false, nil, usagef("--codec %v: %v", target, err)
			}
			every = append(every, writer.WithCodecs(f))
		}
	}
	all = r.pageSize != 0 || r.pageVersion != 0 || r.dictionary.set || r.statistics.set || r.pageIndex.set || r.rowGroupSize != 0
	if all {
		opts = append(opts, reencode.WithAll(every...))
	}
	if r.rowGroupSize != 0 {
		if r.rowGroupSize < 1 {
			return nil, false, nil, usagef("--row-group-size must be positive")
		}
		opts = append(opts, reencode.WithRowGroupSize(int64(r.rowGroupSize)))
	}
	column := func(path string, o ...writer.Option) {
		if !all {
			o = append(append([]writer.Option(nil), every...), o...)
			paths = append(paths, path)
		}
		opts = append(opts, reencode.WithColumn(path, o...))
	}
	for _, kv := range splitList(r.encoding) {
		path, name, ok := strings.Cut(kv, "=")
		if !ok || path == "" {
			return nil, false, nil, usagef("--encoding: %q is not path=ENC", kv)
		}
		e, err := parseEncoding(name)
		if err != nil {
			return nil, false, nil, usagef("--encoding %s: %v", path, err)
		}
		if e == format.RLEDictionary || e == format.PlainDictionary {
			column(path, writer.WithDictionary(true))
		} else {
			column(path, writer.WithDictionary(false), writer.WithEncoding(e))
		}
	}
	for _, spec := range splitList(r.bloom) {
		path, p, hasP := strings.Cut(spec, ":")
		fpp := 0.01
		if hasP {
			if fpp, err = strconv.ParseFloat(p, 64); err != nil || !(fpp > 0 && fpp < 1) {
				return nil, false, nil, usagef("--bloom %s: false-positive probability %q not in (0, 1)", path, p)
			}
		}
		column(path)
		opts = append(opts, reencode.WithBloomFilter(path, fpp))
	}
	return opts, all, paths, nil
}

func splitList(s string) []string {
	var out []string
	for _, e := range strings.Split(s, ",") {
		if e = strings.TrimSpace(e); e != "" {
			out = append(out, e)
		}
	}
	return out
}

// description returns the re-encoding flags given, normalised, for
// [rewriteFlags.description]: "encoding=a=DELTA_BINARY_PACKED page-size=1024
// ...", the lists sorted.
func (r *reencodeFlags) description() string {
	var enc, bloom []string
	for _, kv := range splitList(r.encoding) {
		path, name, _ := strings.Cut(kv, "=")
		if e, err := parseEncoding(name); err == nil {
			name = e.String()
		}
		enc = append(enc, path+"="+name)
	}
	for _, spec := range splitList(r.bloom) {
		path, p, hasP := strings.Cut(spec, ":")
		if !hasP {
			p = "0.01"
		}
		if fpp, err := strconv.ParseFloat(p, 64); err == nil {
			p = strconv.FormatFloat(fpp, 'g', -1, 64)
		}
		bloom = append(bloom, path+":"+p)
	}
	sort.Strings(enc)
	sort.Strings(bloom)
	return fmt.Sprintf("encoding=%s page-size=%d page-version=%d dictionary=%s statistics=%s page-index=%s bloom=%s row-group-size=%d",
		strings.Join(enc, ","), r.pageSize, r.pageVersion, r.dictionary.String(), r.statistics.String(), r.pageIndex.String(),
		strings.Join(bloom, ","), r.rowGroupSize)
}

// reencodeFile is rewrite with re-encoding flags: package reencode writes
// the re-encoded columns with the target codec and copies the others into a
// first temporary file; unless every column was re-encoded or the target
// is keep, package recompress then recompresses the copied columns into a
// second one. With --verify the rows of the result are compared with IN's
// (and the recompressed pages with the first file's). The result is renamed
// over OUT; on any error OUT is left as it was and the temporary files
// removed. memory bounds each column reader (reencode.WithMaxMemory); ropts
// bound the recompression. The options are recorded under targetKey, as
// [rewriteFile] records them, for directory mode to skip what is done.
func reencodeFile(in, out string, f *rewriteFlags, ropts []recompress.Option, cleanup *cleanup, memory int64) (*fileResult, error) {
	start := time.Now()
	if f.crypt.active() {
		return nil, usagef("the re-encoding flags do not combine with encryption yet: re-encode first, then encrypt with a second rewrite")
	}
	target, err := recompress.ParseTarget(f.codec)
	if err != nil {
		return nil, usagef("--codec %q: %v", f.codec, err)
	}
	opts, all, paths, err := f.re.options(target)
	if err != nil {
		return nil, err
	}
	opts = append(opts, reencode.WithMaxMemory(memory), reencode.WithKeyValue(targetKey, f.description()),
		reencode.WithSourceChecksums(f.srcCRC))
	src, sst, err := openInput(in, out)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	dir := filepath.Dir(out)
	removeStale(out)
	var temps []*os.File
	defer func() {
		for _, t := range temps {
			t.Close()
			os.Remove(t.Name())
			cleanup.remove(t.Name())
		}
	}()
	temp := func() (*os.File, error) {
		t, err := cleanup.createTemp(dir, "."+filepath.Base(out)+".tmp-*")
		if err == nil {
			temps = append(temps, t)
		}
		return t, err
	}
	t1, err := temp()
	if err != nil {
		return nil, &fileError{out, err}
	}
	res, err := reencode.Rewrite(context.Background(), destWriter{t1}, src, sst.Size(), opts...)
	if err != nil {
		var w *writeError
		if errors.As(err, &w) {
			return nil, &fileError{out, err}
		}
		return nil, &fileError{in, err}
	}
	final, size := t1, res.BytesOut
	if !all && target.Codec != recompress.Keep {
		t2, err := temp()
		if err != nil {
			return nil, &fileError{out, err}
		}
		ropts = ropts[:len(ropts):len(ropts)] // shared by the files of a directory: append copies
		for _, p := range paths {
			ropts = append(ropts, recompress.WithColumnCodec(p, recompress.Target{Codec: recompress.Keep}))
		}
		rres, err := recompress.Rewrite(destWriter{t2}, t1, res.BytesOut, ropts...)
		if err != nil {
			return nil, &fileError{out, err}
		}
		if f.verify {
			if err := recompress.Verify(t1, res.BytesOut, t2, rres.BytesOut, nil); err != nil {
				return nil, &fileError{out, fmt.Errorf("verification failed: %w", err)}
			}
		}
		final, size = t2, rres.BytesOut
	}
	if err := final.Sync(); err != nil {
		return nil, &fileError{out, err}
	}
	if f.verify {
		if err := reencode.Verify(context.Background(), src, sst.Size(), final, size); err != nil {
			return nil, &fileError{out, fmt.Errorf("verification failed: %w", err)}
		}
	}
	if err := final.Chmod(sst.Mode().Perm() | 0o200); err != nil {
		return nil, &fileError{out, err}
	}
	if err := os.Rename(final.Name(), out); err != nil {
		return nil, &fileError{out, err}
	}
	syncDir(dir)
	v := ""
	if f.verify {
		v = ", verified"
	}
	elapsed := time.Since(start)
	line := fmt.Sprintf("%s -> %s: %s -> %s (ratio %.3f), %d rows, %d column chunks re-encoded, %d copied, %.1f MB/s%s",
		in, out, sizeText(sst.Size()), sizeText(size), float64(size)/float64(max(sst.Size(), 1)), res.Rows,
		res.ChunksEncoded, res.ChunksCopied, float64(sst.Size())/1e6/max(elapsed.Seconds(), 1e-9), v)
	return &fileResult{Result: &recompress.Result{BytesIn: sst.Size(), BytesOut: size}, elapsed: elapsed, line: line}, nil
}

func init() {
	longHelp["rewrite"] += `

Re-encoding: --encoding, --bloom (the columns they name) and --page-size,
--page-version, --dictionary, --statistics, --page-index, --row-group-size
(every column) decode those columns and write them again through package
writer (package reencode), with the --codec target; the other columns' pages
are copied and recompressed as above. --verify then compares the output's
rows with IN's, value for value. IN may be a directory, as above: the flags
are recorded with the codecs, an output written with other flags is done
again, and --max-memory bounds what each file's column readers hold, shared
by the --jobs files.`
}
