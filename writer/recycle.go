package writer

import (
	"sync"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/enctable"
)

// A process that writes many small files (a service writing one per
// request, the Arrow adapter writing a table) would grow every column's
// buffers and dictionary tables again for each file: for a file of a
// thousand rows that is most of what the writer allocates and, through the
// garbage collector, a third of its time. So a Writer that closes cleanly
// hands its chunk writers' buffers, as one set, to the next Writer created
// in the process, through a sync.Pool; column i of the next Writer takes
// those of column i when it has the same physical type (a service writing
// one schema gets each column's own tables back), else those of another
// column of its type.
//
// What is handed over is bounded: buffers over maxRecycledBytes and
// dictionaries over maxRecycledDict values are left to the collector, and
// the pool itself is emptied by the collector as any sync.Pool is. Nothing
// handed over is referenced by the closed Writer any more (recycle clears
// its fields), and no output depends on a buffer's history: files are
// byte-identical with or without recycling (TestRecycledIdentical).
const (
	maxRecycledBytes = 1 << 20
	maxRecycledDict  = 1 << 14
)

// recycled holds the buffers of a chunk writer between Writers.
type recycled struct {
	typ                                            format.Type
	typeLen                                        int
	dict                                           enctable.DictEncoder
	pages                                          pageBuf
	bounds, body, comp, hdrBuf, dictPage, bloomBuf []byte
	locs                                           []pageLoc
	encStats                                       []format.PageEncodingStats
	encodings                                      []format.Encoding
	repHists, defHists, unenc                      []int64
	def, rep, stagedDef, stagedRep                 []int16
	vals, distinct, staged                         enctable.Values
}

// recycledSet is what a closed Writer leaves: its columns' buffers, in
// column order.
type recycledSet []*recycled

var recyclePool sync.Pool // of *recycledSet

// takeRecycled returns a closed Writer's set, or nil.
func takeRecycled() recycledSet {
	if s, _ := recyclePool.Get().(*recycledSet); s != nil {
		return *s
	}
	return nil
}

// take removes from s and returns the buffers for column i of type t and
// FIXED_LEN_BYTE_ARRAY length typeLen: column i's own when they match,
// else the first of that type, else nil.
func (s recycledSet) take(i int, t format.Type, typeLen int) *recycled {
	if i < len(s) && s[i] != nil && s[i].typ == t && s[i].typeLen == typeLen {
		r := s[i]
		s[i] = nil
		return r
	}
	for k, r := range s {
		if r != nil && r.typ == t && r.typeLen == typeLen {
			s[k] = nil
			return r
		}
	}
	return nil
}

// reuse gives the new chunk writer c the buffers of r (which may be nil)
// and resets c's state over them.
func (c *chunkWriter) reuse(r *recycled) {
	if r == nil {
		return
	}
	if c.dict != nil && r.dict != nil {
		c.dict = r.dict
	}
	c.pages, c.body, c.comp, c.hdrBuf, c.dictPage, c.bloomBuf = r.pages, r.body, r.comp, r.hdrBuf, r.dictPage, r.bloomBuf
	if r.bounds != nil {
		c.bounds = r.bounds
	}
	c.locs, c.encStats, c.encodings = r.locs, r.encStats, r.encodings
	c.repHists, c.defHists, c.unenc = r.repHists, r.defHists, r.unenc
	c.def, c.rep = r.def, r.rep
	c.vals, c.distinct = r.vals, r.distinct
	c.vals.Type, c.vals.TypeLength = c.typ, c.typeLen
	c.async.v, c.async.def, c.async.rep = r.staged, r.stagedDef, r.stagedRep
	c.resetChunk()
}

// recycleAll hands the buffers of w's chunk writers to the pool, as one
// set, and clears them from the chunk writers. w must not write afterwards:
// Close calls it once the file is complete and no worker holds a column.
func (w *Writer) recycleAll() {
	s := make(recycledSet, len(w.cols))
	for i, c := range w.cols {
		s[i] = c.recycle()
	}
	recyclePool.Put(&s)
}

// recycle returns c's buffers, each emptied or dropped when too large, and
// clears them from c.
func (c *chunkWriter) recycle() *recycled {
	r := &recycled{typ: c.typ, typeLen: c.typeLen,
		pages: smallPages(c.pages), bounds: small(c.bounds), body: small(c.body), comp: small(c.comp),
		hdrBuf: small(c.hdrBuf), dictPage: small(c.dictPage), bloomBuf: small(c.bloomBuf),
		locs: smallOf(c.locs, 40), encStats: c.encStats, encodings: c.encodings,
		repHists: smallOf(c.repHists, 8), defHists: smallOf(c.defHists, 8), unenc: smallOf(c.unenc, 8),
		def: smallOf(c.def, 2), rep: smallOf(c.rep, 2),
		stagedDef: smallOf(c.async.def, 2), stagedRep: smallOf(c.async.rep, 2),
		vals: smallValues(c.vals), distinct: smallValues(c.distinct), staged: smallValues(c.async.v)}
	if c.dict != nil && c.dict.Len() <= maxRecycledDict {
		r.dict = c.dict
	}
	c.dict = nil
	c.pages = pageBuf{}
	c.bounds, c.body, c.comp, c.hdrBuf, c.dictPage, c.bloomBuf = nil, nil, nil, nil, nil, nil
	c.locs, c.encStats, c.encodings = nil, nil, nil
	c.repHists, c.defHists, c.unenc = nil, nil, nil
	c.def, c.rep = nil, nil
	c.vals, c.distinct = enctable.Values{}, enctable.Values{}
	c.async.v, c.async.def, c.async.rep = enctable.Values{}, nil, nil
	return r
}

// smallPages returns p emptied, keeping its first blocks up to
// maxRecycledBytes in all.
func smallPages(p pageBuf) pageBuf {
	kept, total := p.blocks[:0], 0
	for _, b := range p.blocks {
		if total += cap(b); total > maxRecycledBytes {
			break
		}
		kept = append(kept, b[:0])
	}
	clear(p.blocks[len(kept):])
	return pageBuf{blocks: kept}
}

// small returns b emptied, or nil when it holds more than maxRecycledBytes.
func small(b []byte) []byte { return smallOf(b, 1) }

// smallOf returns s emptied, or nil when its elements of size bytes take
// more than maxRecycledBytes.
func smallOf[T any](s []T, size int) []T {
	if cap(s)*size > maxRecycledBytes {
		return nil
	}
	return s[:0]
}

// smallValues returns v's slices emptied, each dropped when too large.
func smallValues(v enctable.Values) enctable.Values {
	return enctable.Values{Booleans: smallOf(v.Booleans, 1), Int32s: smallOf(v.Int32s, 4),
		Int64s: smallOf(v.Int64s, 8), Int96s: smallOf(v.Int96s, 12), Floats: smallOf(v.Floats, 4),
		Doubles: smallOf(v.Doubles, 8), Bytes: small(v.Bytes), Offsets: smallOf(v.Offsets, 4)}
}
