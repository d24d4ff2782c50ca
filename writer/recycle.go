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
// hands its chunk writers' buffers to the next chunk writer of the same
// physical type created in the process, through one sync.Pool per type.
//
// What is handed over is bounded: buffers over maxRecycledBytes and
// dictionaries over maxRecycledDict values are left to the collector, so
// a pooled set holds at most a few MiB, and the pools themselves are
// emptied by the collector as any sync.Pool is. Nothing handed over is
// referenced by the closed Writer any more (recycle clears its fields), and
// no output depends on a buffer's history: files are byte-identical with or
// without recycling (TestRecycledIdentical).
const (
	maxRecycledBytes = 1 << 20
	maxRecycledDict  = 1 << 14
)

// recycled holds the buffers of a chunk writer between Writers.
type recycled struct {
	dict                                                  enctable.DictEncoder
	typeLen                                               int
	pages, bounds, body, comp, hdrBuf, dictPage, bloomBuf []byte
	locs                                                  []pageLoc
	encStats                                              []format.PageEncodingStats
	encodings                                             []format.Encoding
	repHists, defHists, unenc                             []int64
	def, rep                                              []int16
	vals, distinct                                        enctable.Values
}

// recyclePools holds *recycled, by physical type.
var recyclePools [format.FixedLenByteArray + 1]sync.Pool

// reuse takes the buffers of a closed Writer's chunk writer of c's type, if
// the pool has one; the dictionary only when c has one of the same
// FIXED_LEN_BYTE_ARRAY length. It is called before c allocates any of them.
func (c *chunkWriter) reuse() {
	if c.typ < 0 || int(c.typ) >= len(recyclePools) {
		return
	}
	r, _ := recyclePools[c.typ].Get().(*recycled)
	if r == nil {
		return
	}
	if c.cfg.dictionary && r.typeLen == c.typeLen {
		c.dict = r.dict
	}
	c.pages, c.bounds, c.body, c.comp, c.hdrBuf, c.dictPage, c.bloomBuf = r.pages, r.bounds, r.body, r.comp, r.hdrBuf, r.dictPage, r.bloomBuf
	c.locs, c.encStats, c.encodings = r.locs, r.encStats, r.encodings
	c.repHists, c.defHists, c.unenc = r.repHists, r.defHists, r.unenc
	c.def, c.rep = r.def, r.rep
	c.vals, c.distinct = r.vals, r.distinct
}

// recycle hands c's buffers to the pool of its type and clears them from c.
// c must not be used afterwards: it is called by Close once the file is
// complete and no worker holds c.
func (c *chunkWriter) recycle() {
	if c.typ < 0 || int(c.typ) >= len(recyclePools) {
		return
	}
	r := &recycled{typeLen: c.typeLen,
		pages: small(c.pages), bounds: small(c.bounds), body: small(c.body), comp: small(c.comp),
		hdrBuf: small(c.hdrBuf), dictPage: small(c.dictPage), bloomBuf: small(c.bloomBuf),
		locs: smallOf(c.locs, 40), encStats: c.encStats, encodings: c.encodings,
		repHists: smallOf(c.repHists, 8), defHists: smallOf(c.defHists, 8), unenc: smallOf(c.unenc, 8),
		def: smallOf(c.def, 2), rep: smallOf(c.rep, 2),
		vals: smallValues(c.vals), distinct: smallValues(c.distinct)}
	if c.dict != nil && c.dict.Len() <= maxRecycledDict {
		r.dict = c.dict
	}
	recyclePools[c.typ].Put(r)
	c.dict = nil
	c.pages, c.bounds, c.body, c.comp, c.hdrBuf, c.dictPage, c.bloomBuf = nil, nil, nil, nil, nil, nil, nil
	c.locs, c.encStats, c.encodings = nil, nil, nil
	c.repHists, c.defHists, c.unenc = nil, nil, nil
	c.def, c.rep = nil, nil
	c.vals, c.distinct = enctable.Values{}, enctable.Values{}
}

// small returns b emptied, or nil when it holds more than maxRecycledBytes.
func small(b []byte) []byte { return smallOf(b, 1) }

// smallOf returns s emptied, or nil when its size elements of s take more
// than maxRecycledBytes.
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
