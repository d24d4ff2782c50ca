package recompress

import (
	"fmt"
	"hash/crc32"
	"runtime/debug"
	"sync"

	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/pages"
)

// worker recompresses pages; it keeps a scratch buffer for decompressed
// pages between calls. Its pipeline (internal/pages, the column reader's)
// checks, splits and decompresses the pages it is given; the producer walks.
type worker struct {
	scratch []byte
	pipe    pages.Pipeline
}

// bufPool holds page buffers ([]byte of any capacity) for reuse.
var bufPool sync.Pool

// getBuf returns an empty buffer with room for n bytes.
func getBuf(n int) []byte {
	if p, ok := bufPool.Get().(*[]byte); ok && cap(*p) >= n {
		return (*p)[:0]
	} else if ok {
		bufPool.Put(p)
	}
	return make([]byte, 0, n)
}

// putBuf returns b to the pool.
func putBuf(b []byte) {
	if cap(b) > 0 {
		b = b[:0]
		bufPool.Put(&b)
	}
}

// process sets j.hdr and j.body to the rewritten page, or j.err.
func (w *worker) process(r *rewriter, j *job) {
	defer func() {
		if v := recover(); v != nil {
			*w = worker{} // its buffers may be half written
			j.hdr, j.body, j.pooled = nil, nil, false
			j.err = internalError(v)
		}
	}()
	if testPageHook != nil {
		testPageHook(j.off)
	}
	j.hdr, j.body, j.err = w.page(r, j)
	j.pooled = j.err == nil && len(j.body) > 0 && (len(j.src) == j.hlen || &j.body[0] != &j.src[j.hlen])
}

// page returns the new header and body of the page of j. The body is
// either a buffer from the pool or a slice of j.src.
func (w *worker) page(r *rewriter, j *job) (hdr, body []byte, err error) {
	h := j.header // a copy: the source header stays as read
	body = j.src[j.hlen:]
	if j.target.Codec == Keep {
		return j.src[:j.hlen], body, nil
	}
	w.pipe.Codecs, w.pipe.Codec, w.pipe.VerifyCRC = r.decoder, j.codec, r.cfg.srcCRC
	if err := w.pipe.CheckCRC(&h, body); err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrChecksum, err)
	}
	t := j.target
	var newBody []byte
	switch h.Type {
	case format.DataPage, format.DictionaryPage:
		s, _ := pages.Split(&h, body) // one section
		raw, err := w.decompress(s)
		if err != nil {
			return nil, nil, err
		}
		out := getBuf(t.f.CompressBound(t.Codec, len(raw)))
		if newBody, err = compress(t, out, raw); err != nil {
			putBuf(out)
			return nil, nil, err
		}
	case format.DataPageV2:
		if newBody, err = w.pageV2(j, &h, body); err != nil {
			return nil, nil, err
		}
	default:
		// Index pages and unknown types: copied byte for byte.
		return j.src[:j.hlen], body, nil
	}
	h.CompressedPageSize = int32(len(newBody))
	switch {
	case r.cfg.crc == CRCDrop:
		h.HasCRC = false
	case r.cfg.crc == CRCAdd || h.HasCRC:
		h.HasCRC = true
		h.CRC = int32(crc32.ChecksumIEEE(newBody))
	}
	return format.AppendPageHeader(nil, &h), newBody, nil
}

// pageV2 returns the new body of a data page v2: its levels as they are,
// then the values section compressed with the target, or uncompressed
// (is_compressed false) when that is not larger. The page is split by
// the page pipeline (pages.Split), as the column reader splits it, so a
// values section stored uncompressed is taken as it is whatever size the
// header declares; h's uncompressed_page_size is set to the page's real
// size.
func (w *worker) pageV2(j *job, h *format.PageHeader, body []byte) ([]byte, error) {
	dh := &h.DataPageHeaderV2
	parts, err := pages.Split(h, body)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	levels := len(parts.RepLevels) + len(parts.DefLevels)
	raw, err := w.decompress(parts)
	if err != nil {
		return nil, err
	}
	h.UncompressedPageSize = int32(parts.UncompressedSize())
	t := j.target
	out := append(getBuf(levels+t.f.CompressBound(t.Codec, len(raw))), body[:levels]...)
	dh.HasIsCompressed = true
	if t.Codec != codecfactory.Uncompressed && len(raw) > 0 {
		c, err := compress(t, out, raw)
		if err != nil {
			putBuf(out)
			return nil, err
		}
		if len(c)-levels < len(raw) {
			dh.IsCompressed = true
			return c, nil
		}
	}
	dh.IsCompressed = false
	return append(out[:levels], raw...), nil
}

// decompress returns the data of s decompressed, into the worker's scratch
// buffer (or s.Data itself when it is stored uncompressed).
func (w *worker) decompress(s pages.Sections) ([]byte, error) {
	out, err := w.pipe.Decompress(&w.scratch, s)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return out, nil
}

// compress appends raw compressed with t to dst.
func compress(t *colTarget, dst, raw []byte) ([]byte, error) {
	if t.Codec == codecfactory.Uncompressed {
		return append(dst, raw...), nil
	}
	if dst == nil {
		dst = make([]byte, 0, t.f.CompressBound(t.Codec, len(raw)))
	}
	return t.f.Compress(t.Codec, dst, raw)
}

// testPageHook, when a test sets it, runs before each page is processed.
var testPageHook func(offset int64)

// internalError is the error of a panic recovered in a worker or in the
// walk of a chunk: it wraps [ErrInternal] and holds the stack. Every
// decoder and codec below returns errors for damaged input, so a panic is
// a bug; recovering it keeps the host process alive (File.ReadRowGroup
// does the same for its workers).
func internalError(v any) error {
	return fmt.Errorf("%w: panic: %v\n%s", ErrInternal, v, debug.Stack())
}
