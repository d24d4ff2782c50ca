package merge

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"slices"
	"sync"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/flow"
	"github.com/pqcodec/pqcodec/internal/splice"
)

// Result summarises a merge.
type Result struct {
	Inputs            int
	Rows              int64
	BytesIn, BytesOut int64 // sizes of the inputs, bytes written
	// RowGroupsIn counts the inputs' row groups: RowGroupsCopied of them
	// copied page by page, RowGroupsCombined decoded and written again
	// into fewer. RowGroupsOut counts the output's.
	RowGroupsIn, RowGroupsOut               int
	RowGroupsCopied, RowGroupsCombined      int
	DroppedPageIndexes, DroppedBloomFilters int
	// DroppedKeyValues lists the key-value metadata keys left out of the
	// output because the inputs disagree on them.
	DroppedKeyValues []string
	// Groups says where the output's row groups come from, in order.
	Groups []Group
}

// Group is a run of output row groups and the input row groups they hold.
type Group struct {
	Sources   []RowGroupRef
	RowGroups int  // output row groups made of them
	Combined  bool // decoded and written again; otherwise copied (one source, one row group)
}

// RowGroupRef names a row group of an input: indexes into Merge's inputs
// and into that input's row groups.
type RowGroupRef struct{ Input, RowGroup int }

// Merge writes to dst one Parquet file holding the rows of every input in
// order, as the package documentation describes, and returns a summary.
// Every input must have the same schema (otherwise a *[SchemaError]). dst
// receives the file in one pass of sequential writes; on error, what was
// written is incomplete and must be discarded.
func Merge(dst io.Writer, inputs []Input, opts ...Option) (*Result, error) {
	return MergeContext(context.Background(), dst, inputs, opts...)
}

// MergeContext is [Merge] under ctx: it is checked before each row group is
// written and between the pages of the row groups being combined; a
// cancelled merge stops its workers and returns an error wrapping ctx's
// error, with dst incomplete as after any error.
func MergeContext(ctx context.Context, dst io.Writer, inputs []Input, opts ...Option) (*Result, error) {
	cfg := defaultConfig()
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	if len(inputs) == 0 {
		return nil, fmt.Errorf("%w: no inputs", ErrOption)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	srcs, err := readFooters(ctx, inputs, &cfg)
	if err != nil {
		return nil, err
	}
	for i := 1; i < len(srcs); i++ {
		if err := compareSchemas(inputs[0].Name, srcs[0].schema, inputs[i].Name, srcs[i].schema); err != nil {
			return nil, err
		}
	}
	m := &merger{cfg: &cfg, ctx: ctx, inputs: inputs, srcs: srcs, quit: make(chan struct{})}
	m.budget.Init(cfg.budget)
	m.plan()
	return m.run(dst)
}

// source is an input: its footer, parsed once, and the column.File that
// reads its row groups when they are combined, through r.
type source struct {
	meta   *format.FileMetaData
	schema *format.Schema
	size   int64
	file   *column.File
	r      *lazyReader
}

// lazyReader is the io.ReaderAt of an input that is open only while a
// worker holds it (acquire, release), so that the column.File of every
// input can be kept from the footer on while thousands of inputs do not
// hold thousands of open files.
type lazyReader struct {
	in     Input
	size   int64 // when the footer was read
	mu     sync.Mutex
	r      io.ReaderAt
	closer func()
	users  int
}

// acquire opens the input unless it is open already.
func (l *lazyReader) acquire() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.users == 0 {
		r, size, closer, err := open(l.in)
		if err != nil {
			return fmt.Errorf("%s: %w", l.in.Name, err)
		}
		if l.r != nil && size != l.size {
			closer()
			return fmt.Errorf("%s: %w: %d bytes, %d when its footer was read", l.in.Name, ErrCorrupt, size, l.size)
		}
		l.r, l.closer, l.size = r, closer, size
	}
	l.users++
	return nil
}

// release closes the input when no worker holds it.
func (l *lazyReader) release() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.users--; l.users == 0 {
		l.closer()
		l.closer = func() {}
	}
}

// ReadAt reads from the input, which must be held.
func (l *lazyReader) ReadAt(p []byte, off int64) (int, error) {
	l.mu.Lock()
	r, held := l.r, l.users > 0
	l.mu.Unlock()
	if !held {
		return 0, errors.New("merge: reading an input that is not open")
	}
	return r.ReadAt(p, off)
}

// open opens input in and returns it with a function that closes it.
func open(in Input) (io.ReaderAt, int64, func(), error) {
	r, size, err := in.Open()
	if err != nil {
		return nil, 0, nil, err
	}
	closer := func() {}
	if c, ok := r.(io.Closer); ok {
		closer = func() { c.Close() }
	}
	return r, size, closer, nil
}

// readFooters reads the footer of every input, cfg.workers at a time, and
// opens a column.File on each with the options of combining.
func readFooters(ctx context.Context, inputs []Input, cfg *config) ([]source, error) {
	// Each column reader is bounded too, by the budget or the default if
	// larger (a row group over a small budget still goes through, alone): a
	// page whose values would take more (a few KB of brotli can hold
	// gigabytes of strings) fails with column.ErrLimit instead of
	// exhausting memory.
	opts := []column.Option{column.WithMaxMemory(max(cfg.budget, DefaultMaxMemory))}
	if cfg.decoder != nil {
		opts = append(opts, column.WithCodecs(cfg.decoder))
	}
	workers := cfg.workers
	srcs := make([]source, len(inputs))
	errs := make([]error, len(inputs))
	var next int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range min(workers, len(inputs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(inputs) || ctx.Err() != nil {
					return
				}
				srcs[i], errs[i] = readFooter(inputs[i], opts)
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return srcs, nil
}

func readFooter(in Input, opts []column.Option) (source, error) {
	l := &lazyReader{in: in}
	if err := l.acquire(); err != nil {
		return source{}, err
	}
	defer l.release()
	// column.Open parses the footer, builds the schema and checks every row
	// group against it.
	f, err := column.Open(l, l.size, opts...)
	if err != nil {
		return source{}, fmt.Errorf("%s: %w", in.Name, wrapSource(err))
	}
	meta, schema := f.MetaData(), f.Schema()
	if meta.HasEncryptedColumns() || meta.EncryptionAlgorithm != nil {
		return source{}, fmt.Errorf("%s: %w: %w", in.Name, ErrEncrypted, format.ErrEncrypted)
	}
	for i := range meta.RowGroups {
		for j := range meta.RowGroups[i].Columns {
			if meta.RowGroups[i].Columns[j].FilePath != nil {
				return source{}, fmt.Errorf("%s: %w: row group %d column %d is stored in another file", in.Name, ErrUnsupported, i, j)
			}
		}
	}
	return source{meta: meta, schema: schema, size: l.size, file: f, r: l}, nil
}

// wrapSource wraps an error about an input with ErrCorrupt, keeping
// ErrEncrypted for encrypted footers.
func wrapSource(err error) error {
	if errors.Is(err, format.ErrEncrypted) {
		return fmt.Errorf("%w: %w", ErrEncrypted, err)
	}
	if errors.Is(err, column.ErrLimit) {
		return fmt.Errorf("merge: %w", err) // a bound of WithMaxMemory, not damage
	}
	return fmt.Errorf("%w: %w", ErrCorrupt, err)
}

// groupSize is the compressed size of row group rg.
func groupSize(rg *format.RowGroup) int64 {
	if rg.TotalCompressedSize != nil && *rg.TotalCompressedSize > 0 {
		return *rg.TotalCompressedSize
	}
	var n int64
	for i := range rg.Columns {
		if m := rg.Columns[i].MetaData; m != nil {
			n += m.TotalCompressedSize
		}
	}
	return n
}

// merger holds the state of one Merge call.
type merger struct {
	cfg    *config
	ctx    context.Context
	inputs []Input
	srcs   []source
	units  []*unit
	budget flow.Budget
	quit   chan struct{} // closed when the writer stops early
	total  int64         // compressed bytes of every row group
	// writerWorkers are the workers of each combining writer
	// (writer.WithWorkers): the merge's workers when fewer runs than
	// workers are combined, so that one run uses them, and 1 otherwise:
	// the runs keep them busy, without the writer's cost of handing each
	// batch to a goroutine (20% more CPU on difftest files).
	writerWorkers int
}

// unit is one item of work: input row groups copied (one) or combined
// (several), and, once a worker is done, the output row groups.
type unit struct {
	Group
	bytes int64 // compressed bytes of the sources
	cost  int64 // budget held
	done  chan struct{}
	out   []*splice.Group
	err   error
}

// plan cuts the inputs' row groups into units: each row group of at least
// minSize alone, copied; runs of smaller ones combined until they reach
// minSize (a run of one is copied).
func (m *merger) plan() {
	var run []RowGroupRef
	var runBytes int64
	flush := func() {
		if len(run) == 0 {
			return
		}
		u := &unit{Group: Group{Sources: run, Combined: len(run) > 1}, bytes: runBytes}
		m.units = append(m.units, u)
		run, runBytes = nil, 0
	}
	for i := range m.srcs {
		for g := range m.srcs[i].meta.RowGroups {
			n := groupSize(&m.srcs[i].meta.RowGroups[g])
			m.total += n
			ref := RowGroupRef{Input: i, RowGroup: g}
			if n >= m.cfg.minSize {
				flush()
				m.units = append(m.units, &unit{Group: Group{Sources: []RowGroupRef{ref}}, bytes: n})
				continue
			}
			run = append(run, ref)
			runBytes += n
			if runBytes >= m.cfg.minSize {
				flush()
			}
		}
	}
	flush()
	combined := 0
	for _, u := range m.units {
		if u.Combined {
			combined++
		}
	}
	m.writerWorkers = 1
	if combined < m.cfg.workers {
		m.writerWorkers = m.cfg.workers
	}
	for _, u := range m.units {
		u.cost = u.bytes + 64<<10
		if u.Combined {
			// The sources' pages one at a time, the new row group's
			// compressed pages and the file they make, and each column's
			// page and dictionary buffers.
			u.cost = 3*u.bytes + 16<<20
		}
		u.done = make(chan struct{})
	}
}

// run reads and combines the units on m.cfg.workers goroutines and writes
// them to dst in order (flow.Run).
func (m *merger) run(dst io.Writer) (*Result, error) {
	worker := func(u *unit, stopped bool) {
		if stopped {
			u.err = errStopped
		} else {
			m.process(u)
		}
		close(u.done)
	}
	return flow.Run(m.cfg.workers, m.quit, &m.budget, func() func(*unit, bool) { return worker }, m.produce,
		func(order <-chan *unit) (*Result, error) { return m.write(dst, order) })
}

// produce queues every unit on order and work, each once the budget holds
// its cost, until the units end or the writer stops.
func (m *merger) produce(order, work chan<- *unit) {
	for _, u := range m.units {
		if !m.budget.Acquire(u.cost) {
			return
		}
		select {
		case order <- u:
		case <-m.quit:
			return
		}
		select {
		case work <- u:
		case <-m.quit:
			return
		}
	}
}

var errStopped = errors.New("merge: stopped")

// process fills u.out, turning a panic into an error (a bug: every reader
// returns errors for damaged input).
func (m *merger) process(u *unit) {
	defer func() {
		if v := recover(); v != nil {
			u.err = fmt.Errorf("merge: internal error: %v\n%s", v, debug.Stack())
		}
	}()
	if u.Combined {
		u.out, u.err = m.combine(u.Sources)
		return
	}
	ref := u.Sources[0]
	in := m.inputs[ref.Input]
	r, size, closer, err := open(in)
	if err != nil {
		u.err = fmt.Errorf("%s: %w", in.Name, err)
		return
	}
	defer closer()
	g, err := splice.ReadGroup(r, size, m.srcs[ref.Input].meta, ref.RowGroup, nil)
	if err != nil {
		u.err = fmt.Errorf("%s: row group %d: %w", in.Name, ref.RowGroup, wrapSource(err))
		return
	}
	u.out = []*splice.Group{g}
}

// write is the single writing goroutine: it takes the units in order, waits
// for each and writes its row groups, then the indexes and the footer.
func (m *merger) write(dst io.Writer, order <-chan *unit) (*Result, error) {
	cw := &flow.CountWriter{W: dst}
	bw := bufio.NewWriterSize(cw, 1<<20)
	res := &Result{Inputs: len(m.inputs)}
	for i := range m.srcs {
		res.BytesIn += m.srcs[i].size
		res.RowGroupsIn += len(m.srcs[i].meta.RowGroups)
	}
	t, err := splice.NewWriter(func(b []byte) error { _, err := bw.Write(b); return err })
	if err != nil {
		return nil, err
	}
	var done int64
	for u := range order {
		if err := m.ctx.Err(); err != nil {
			m.budget.Release(u.cost)
			return nil, fmt.Errorf("merge: %w", err)
		}
		<-u.done
		m.budget.Release(u.cost)
		if u.err != nil {
			return nil, u.err
		}
		for _, g := range u.out {
			if err := t.WriteGroup(g); err != nil {
				return nil, err
			}
			res.Rows += g.RowGroup.NumRows
			res.DroppedPageIndexes += g.DroppedIndexes
			res.DroppedBloomFilters += g.DroppedBlooms
		}
		if u.Combined {
			res.RowGroupsCombined += len(u.Sources)
		} else {
			res.RowGroupsCopied++
		}
		grp := u.Group
		grp.RowGroups = len(u.out)
		res.Groups = append(res.Groups, grp)
		u.out = nil
		done += u.bytes
		if m.cfg.progress != nil {
			m.cfg.progress(done, m.total)
		}
	}
	if err := m.ctx.Err(); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	meta := m.footer(res)
	if err := t.Finish(meta); err != nil {
		return nil, err
	}
	if err := bw.Flush(); err != nil {
		return nil, err
	}
	res.RowGroupsOut = len(meta.RowGroups)
	res.BytesOut = cw.N
	return res, nil
}

// footer returns the output's footer but for its row groups: the first
// input's schema, the key-value entries every input has alike, created_by
// of the first input, the column orders if every input has the same.
func (m *merger) footer(res *Result) *format.FileMetaData {
	first := m.srcs[0].meta
	meta := &format.FileMetaData{
		Version:      first.Version,
		Schema:       first.Schema,
		CreatedBy:    first.CreatedBy,
		ColumnOrders: first.ColumnOrders,
	}
	kv := slices.Clone(first.KeyValueMetadata)
	for _, s := range m.srcs[1:] {
		meta.Version = max(meta.Version, s.meta.Version)
		if !slices.EqualFunc(meta.ColumnOrders, s.meta.ColumnOrders, func(a, b format.ColumnOrder) bool { return a == b }) {
			meta.ColumnOrders = nil
		}
		kv = slices.DeleteFunc(kv, func(e format.KeyValue) bool {
			keep := slices.ContainsFunc(s.meta.KeyValueMetadata, func(o format.KeyValue) bool {
				return o.Key == e.Key && (o.Value == nil) == (e.Value == nil) && (o.Value == nil || *o.Value == *e.Value)
			})
			if !keep && !slices.Contains(res.DroppedKeyValues, e.Key) {
				res.DroppedKeyValues = append(res.DroppedKeyValues, e.Key)
			}
			return !keep
		})
	}
	for _, s := range m.srcs {
		for _, e := range s.meta.KeyValueMetadata {
			if !slices.ContainsFunc(kv, func(o format.KeyValue) bool { return o.Key == e.Key }) && !slices.Contains(res.DroppedKeyValues, e.Key) {
				res.DroppedKeyValues = append(res.DroppedKeyValues, e.Key)
			}
		}
	}
	for _, e := range m.cfg.keyValue {
		kv = slices.DeleteFunc(kv, func(o format.KeyValue) bool { return o.Key == e.Key })
		kv = append(kv, e)
	}
	meta.KeyValueMetadata = kv
	return meta
}
