package recompress

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/flow"
)

// Result summarises a rewrite.
type Result struct {
	BytesIn  int64 // size of the source file
	BytesOut int64 // bytes written to dst
	// PageBytesIn and PageBytesOut are the bytes of the pages (headers
	// included) read and written.
	PageBytesIn, PageBytesOut int64
	Pages                     int // pages written
	ColumnChunks              int
	// DroppedPageIndexes counts column chunks whose page index was dropped
	// because its page locations do not match the chunk's pages;
	// DroppedBloomFilters counts bloom filters that could not be located.
	DroppedPageIndexes, DroppedBloomFilters int
}

// Ratio returns PageBytesOut/PageBytesIn, or 0 without pages.
func (r *Result) Ratio() float64 {
	if r.PageBytesIn == 0 {
		return 0
	}
	return float64(r.PageBytesOut) / float64(r.PageBytesIn)
}

// Rewrite writes to dst the Parquet file src of size bytes with every page
// recompressed as opts say (by default ZSTD at its default level), and
// returns a summary. It reads src with concurrent ReadAt calls, so src must
// allow them (as *os.File does). dst receives the file in one pass of
// sequential writes; on error, what was written to dst is incomplete and
// must be discarded. The package documentation lists what the output keeps
// and changes.
func Rewrite(dst io.Writer, src io.ReaderAt, size int64, opts ...Option) (*Result, error) {
	return RewriteContext(context.Background(), dst, src, size, opts...)
}

// RewriteContext is [Rewrite] under ctx: it is checked before each page is
// written, and a cancelled rewrite stops its workers and returns an error
// wrapping ctx's error (context.Canceled or context.DeadlineExceeded), with
// dst incomplete as after any error.
func RewriteContext(ctx context.Context, dst io.Writer, src io.ReaderAt, size int64, opts ...Option) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("recompress: %w", err)
	}
	cfg := defaultConfig()
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	meta, crypt, err := readFooterCrypt(&cfg, src, size) // encryption: encrypt.go
	if err != nil {
		return nil, wrapSource(err)
	}
	if meta.HasEncryptedColumns() || meta.EncryptionAlgorithm != nil {
		return nil, fmt.Errorf("%w: %w", ErrEncrypted, format.ErrEncrypted)
	}
	schema, err := format.NewSchema(meta.Schema)
	if err != nil {
		return nil, wrapSource(err)
	}
	for i := range meta.RowGroups {
		if err := schema.CheckRowGroup(&meta.RowGroups[i]); err != nil {
			return nil, wrapSource(fmt.Errorf("row group %d: %w", i, err))
		}
		for j := range meta.RowGroups[i].Columns {
			if meta.RowGroups[i].Columns[j].FilePath != nil {
				return nil, fmt.Errorf("%w: row group %d column %d is stored in another file", ErrUnsupported, i, j)
			}
		}
	}
	r, err := newRewriter(&cfg, meta, schema, src, size)
	if err != nil {
		return nil, err
	}
	defer r.close()
	r.crypt = crypt
	if err := crypt.setup(schema); err != nil {
		return nil, err
	}
	r.ctx = ctx
	return r.run(dst)
}

// wrapSource wraps an error about the source with ErrCorrupt, keeping
// ErrEncrypted for encrypted footers.
func wrapSource(err error) error {
	if errors.Is(err, format.ErrEncrypted) {
		return fmt.Errorf("%w: %w", ErrEncrypted, err)
	}
	return fmt.Errorf("%w: %w", ErrCorrupt, err)
}

// rewriter holds the state of one Rewrite call.
type rewriter struct {
	cfg     *config
	meta    *format.FileMetaData
	src     io.ReaderAt
	size    int64
	decoder *codecfactory.Factory
	owned   []*codecfactory.Factory // factories created here, closed at the end
	targets []colTarget             // per leaf column
	budget  flow.Budget
	quit    chan struct{} // closed when the writer stops early
	ctx     context.Context
	crypt   *rewriteCrypt // encryption: encrypt.go
}

// colTarget is how one leaf column is written.
type colTarget struct {
	Target
	f *codecfactory.Factory
}

var defaultDecoder = sync.OnceValues(func() (*codecfactory.Factory, error) { return codecfactory.New() })

func newRewriter(cfg *config, meta *format.FileMetaData, schema *format.Schema, src io.ReaderAt, size int64) (*rewriter, error) {
	r := &rewriter{cfg: cfg, meta: meta, src: src, size: size, decoder: cfg.decoder, quit: make(chan struct{})}
	r.budget.Init(cfg.budget)
	if r.decoder == nil {
		f, err := defaultDecoder()
		if err != nil {
			return nil, err
		}
		r.decoder = f
	}
	factories := make(map[Target]*codecfactory.Factory)
	factory := func(t Target) (*codecfactory.Factory, error) {
		key := t
		if key.Level == 0 || key.Codec == Keep || key.Codec == codecfactory.Uncompressed {
			return r.decoder, nil // default levels: share the decompressing factory
		}
		if f := factories[key]; f != nil {
			return f, nil
		}
		fo, err := factoryOptions(t)
		if err != nil {
			return nil, err
		}
		f, err := codecfactory.New(fo...)
		if err != nil {
			return nil, fmt.Errorf("%w: %v: %w", ErrOption, t, err)
		}
		factories[key] = f
		r.owned = append(r.owned, f)
		return f, nil
	}
	leaves := schema.Leaves()
	r.targets = make([]colTarget, len(leaves))
	used := make(map[string]bool)
	for i, leaf := range leaves {
		t := cfg.target
		path := strings.Join(leaf.Path(), ".")
		if ct, ok := cfg.columns[path]; ok {
			t = ct
			used[path] = true
		}
		f, err := factory(t)
		if err != nil {
			r.close()
			return nil, err
		}
		if t.Codec == codecfactory.Lzo {
			if !f.CanCompress(t.Codec) {
				r.close()
				return nil, fmt.Errorf("%w: %w: LZO compression", ErrOption, codecfactory.ErrUnavailable)
			}
		}
		r.targets[i] = colTarget{Target: t, f: f}
	}
	for path := range cfg.columns {
		if !used[path] {
			r.close()
			return nil, fmt.Errorf("%w: no leaf column %q", ErrOption, path)
		}
	}
	return r, nil
}

func (r *rewriter) close() {
	for _, f := range r.owned {
		f.Close()
	}
	r.owned = nil
}

// jobKind tells the writer what an item of the ordered queue is.
type jobKind uint8

const (
	pageItem jobKind = iota
	chunkStart
	chunkEnd
)

// job is one item of the ordered queue: a page to recompress, or a chunk
// boundary marker. Workers fill out and err and close done.
type job struct {
	kind  jobKind
	chunk *chunkState
	done  chan struct{}

	// Set by the producer.
	off    int64  // file offset of the page header in the source
	src    []byte // header and body as read
	hlen   int    // header length in src
	header format.PageHeader
	cost   int64 // budget held by this page
	target *colTarget
	codec  codecfactory.Codec // source codec

	// Set by the worker.
	hdr  []byte // new page header
	body []byte // new page body: a pool buffer, or a slice of src
	// pooled is set when body is a pool buffer, not a slice of src.
	pooled bool
	err    error
}

// chunkState tracks one column chunk from the producer to the writer.
type chunkState struct {
	rg, col  int
	oldStart int64
	oldEnd   int64      // end of the last page walked
	pages    []pageMove // filled by the writer
	newStart int64
	newEnd   int64
	uncomp   int64 // new total_uncompressed_size
	err      error // set by the producer for a chunk it could not walk
}

// pageMove records where a page went.
type pageMove struct {
	oldOff, newOff int64
	newSize        int32 // header and body
	typ            format.PageType
}

// run recompresses the pages on r.cfg.workers goroutines, each with a
// worker of its own, and writes them to dst in order (flow.Run).
func (r *rewriter) run(dst io.Writer) (*Result, error) {
	newWorker := func() func(*job, bool) {
		var w worker
		return func(j *job, stopped bool) {
			if stopped {
				j.err = errStopped
			} else {
				w.process(r, j)
			}
			close(j.done)
		}
	}
	return flow.Run(r.cfg.workers, r.quit, &r.budget, newWorker, r.produce,
		func(order <-chan *job) (*Result, error) { return r.write(dst, order) })
}

var errStopped = errors.New("recompress: stopped")

// produce walks the page headers of every column chunk in footer order and
// queues their pages.
func (r *rewriter) produce(order, work chan<- *job) {
	var w format.PageWalker
	closed := make(chan struct{})
	close(closed)
	send := func(j *job) bool {
		select {
		case order <- j:
		case <-r.quit:
			return false
		}
		if j.kind != pageItem {
			return true
		}
		select {
		case work <- j:
			return true
		case <-r.quit:
			return false
		}
	}
	for i := range r.meta.RowGroups {
		rg := &r.meta.RowGroups[i]
		for c := range rg.Columns {
			cc := &rg.Columns[c]
			ch := &chunkState{rg: i, col: c}
			if !send(&job{kind: chunkStart, chunk: ch, done: closed}) {
				return
			}
			if err := r.walkChunkSafe(&w, cc, ch, send); err != nil {
				ch.err = err
			}
			if !send(&job{kind: chunkEnd, chunk: ch, done: closed}) {
				return
			}
			if ch.err != nil {
				return
			}
		}
	}
}

// walkChunkSafe is walkChunk turning a panic into an error wrapping
// [ErrInternal], with a fresh walker for the next chunk.
func (r *rewriter) walkChunkSafe(w *format.PageWalker, cc *format.ColumnChunk, ch *chunkState, send func(*job) bool) (err error) {
	defer func() {
		if v := recover(); v != nil {
			*w = format.PageWalker{}
			err = internalError(v)
		}
	}()
	return r.walkChunk(w, cc, ch, send)
}

// walkChunk queues the pages of one column chunk, walked by w (a streaming
// [format.PageWalker], so with the column reader's rules: the walk ends
// after the data page that completes the chunk's num_values when that is
// positive, and otherwise at the first page boundary at or past the
// declared length; a page may run into the slack that
// [format.FileMetaData.ColumnChunkRange] allows, not past it). Each page is
// copied from the walker's window, which holds one page at a time, into a
// pool buffer of its own.
func (r *rewriter) walkChunk(w *format.PageWalker, cc *format.ColumnChunk, ch *chunkState, send func(*job) bool) error {
	rng, err := r.meta.ColumnChunkRange(cc, r.size)
	if err != nil {
		return wrapSource(err)
	}
	ch.oldStart = rng.Start
	ch.oldEnd = rng.Start
	codec := codecfactory.Codec(cc.MetaData.Codec)
	if !codec.Valid() {
		return fmt.Errorf("%w: %w: column chunk codec %d", ErrCorrupt, codecfactory.ErrUnknownCodec, int32(cc.MetaData.Codec))
	}
	target := &r.targets[ch.col]
	buf := w.Buffer()
	if cap(buf) > maxWindowKept {
		buf = nil
	}
	w.ResetReaderAt(r.src, rng, buf)
	encrypted, err := r.crypt.walkEncrypted(w, ch) // encryption: encrypt.go
	if err != nil {
		return err
	}
	for w.Next() { // with read-ahead: one read for many small pages
		h, off := w.Header(), w.Offset()
		hlen := w.HeaderSize()
		n := int64(hlen) + int64(h.CompressedPageSize)
		if int(h.UncompressedPageSize) > r.cfg.maxPage || h.UncompressedPageSize < 0 {
			return fmt.Errorf("%w: page at offset %d: %w: %d bytes declared", ErrCorrupt, off, codecfactory.ErrPageTooLarge, h.UncompressedPageSize)
		}
		j := &job{kind: pageItem, chunk: ch, off: off, target: target, codec: codec, hlen: hlen, done: make(chan struct{})}
		unc := int64(h.UncompressedPageSize)
		j.cost = n
		if target.Codec != Keep {
			j.cost += unc + int64(target.f.CompressBound(target.Codec, int(unc))) + 64
		}
		if !r.budget.Acquire(j.cost) {
			return errStopped
		}
		if encrypted { // encryption: the page decrypted, its header serialized again
			if err := r.plainPage(w, j); err != nil {
				r.budget.Release(j.cost)
				return err
			}
		} else {
			j.src = append(getBuf(int(n)), w.Page()...)
		}
		// Decode the header again from the page's own copy: statistics
		// alias it.
		if _, err := format.DecodePageHeader(j.src[:j.hlen], &j.header); err != nil {
			r.budget.Release(j.cost)
			putBuf(j.src)
			return fmt.Errorf("%w: page header at offset %d: %w", ErrCorrupt, off, err)
		}
		if !send(j) {
			return errStopped
		}
		ch.oldEnd = off + n
	}
	if err := w.Err(); err != nil {
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return nil
}

// maxWindowKept bounds the window buffer a walk passes on to the next
// chunk's: the window holds one page (and 64 KiB of read-ahead), so after
// a chunk of large pages it is dropped rather than kept for the whole
// rewrite.
const maxWindowKept = 1 << 20

// write is the single writing goroutine: it takes the queue in order,
// waits for each page and writes it, then writes the indexes and footer.
func (r *rewriter) write(dst io.Writer, order <-chan *job) (*Result, error) {
	cw := &flow.CountWriter{W: dst}
	bw := bufio.NewWriterSize(cw, 1<<20)
	pos := int64(0)
	res := &Result{BytesIn: r.size}
	put := func(b []byte) error {
		_, err := bw.Write(b)
		pos += int64(len(b))
		return err
	}
	if err := put(r.crypt.magic()); err != nil {
		return nil, err
	}
	var chunks []*chunkState
	var done int64
	for j := range order {
		ch := j.chunk
		switch j.kind {
		case chunkStart:
			ch.newStart = pos
			continue
		case chunkEnd:
			if ch.err != nil {
				return nil, fmt.Errorf("row group %d column %d: %w", ch.rg, ch.col, ch.err)
			}
			ch.newEnd = pos
			chunks = append(chunks, ch)
			res.ColumnChunks++
			continue
		}
		if err := r.ctx.Err(); err != nil {
			return nil, fmt.Errorf("recompress: page at offset %d: %w", j.off, err)
		}
		<-j.done
		if j.err != nil {
			r.budget.Release(j.cost)
			return nil, fmt.Errorf("row group %d column %d page at offset %d: %w", ch.rg, ch.col, j.off, j.err)
		}
		hdr, body, err := r.encryptPage(ch, j) // encryption: encrypt.go
		if err != nil {
			r.budget.Release(j.cost)
			return nil, fmt.Errorf("row group %d column %d page at offset %d: %w", ch.rg, ch.col, j.off, err)
		}
		n := len(hdr) + len(body)
		ch.pages = append(ch.pages, pageMove{oldOff: j.off, newOff: pos, newSize: int32(n), typ: j.header.Type})
		ch.uncomp += int64(len(hdr)) + int64(j.header.UncompressedPageSize)
		err = put(hdr)
		if err == nil {
			err = put(body)
		}
		res.Pages++
		res.PageBytesIn += int64(len(j.src))
		res.PageBytesOut += int64(n)
		done += int64(len(j.src))
		r.budget.Release(j.cost)
		if j.pooled {
			putBuf(j.body)
		}
		putBuf(j.src)
		j.src, j.hdr, j.body = nil, nil, nil
		if err != nil {
			return nil, err
		}
		if r.cfg.progress != nil {
			r.cfg.progress(done, r.size)
		}
	}
	if err := r.writeTail(put, pos, chunks, res); err != nil {
		return nil, err
	}
	if err := bw.Flush(); err != nil {
		return nil, err
	}
	res.BytesOut = cw.N
	return res, nil
}
