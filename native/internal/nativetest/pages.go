package nativetest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/internal/testcorpus"
)

// Page is the compressed payload of one page of a Parquet file.
type Page struct {
	Offset int    // file offset of the page header
	Type   int    // PageType: 0 data, 2 dictionary, 3 data v2
	Size   int    // uncompressed size of Data's content
	Data   []byte // compressed bytes (levels of v2 pages excluded)
}

// errThrift reports a page header this minimal reader cannot parse.
var errThrift = errors.New("nativetest: bad thrift page header")

// Pages returns the compressed payloads of the pages of a Parquet file,
// walking page headers (Thrift compact protocol) from the first byte after
// the magic to the start of the footer. It stops quietly at the first
// region that is not a page header (column indexes, bloom filters), so it
// suits well-formed test files only. V2 pages whose data is stored
// uncompressed are left out.
func Pages(file []byte) ([]Page, error) {
	if len(file) < 12 || string(file[:4]) != "PAR1" || string(file[len(file)-4:]) != "PAR1" {
		return nil, errors.New("nativetest: not a parquet file")
	}
	footerLen := int(binary.LittleEndian.Uint32(file[len(file)-8:]))
	end := len(file) - 8 - footerLen
	if end < 4 {
		return nil, errors.New("nativetest: bad footer length")
	}
	var pages []Page
	for pos := 4; pos < end; {
		r := &thriftReader{b: file[:end], pos: pos}
		h, err := r.pageHeader()
		if err != nil || h.compressed < 0 || r.pos+h.compressed > end {
			break
		}
		body := file[r.pos : r.pos+h.compressed]
		p := Page{Offset: pos, Type: h.typ, Size: h.uncompressed, Data: body}
		if h.typ == 3 {
			levels := h.defLen + h.repLen
			if levels < 0 || levels > len(body) || levels > h.uncompressed {
				return nil, fmt.Errorf("%w: v2 levels at %d", errThrift, pos)
			}
			p.Data, p.Size = body[levels:], h.uncompressed-levels
		}
		if h.typ != 3 || h.compressedV2 {
			pages = append(pages, p)
		}
		pos = r.pos + h.compressed
	}
	return pages, nil
}

type pageHeader struct {
	typ, uncompressed, compressed int
	defLen, repLen                int
	compressedV2                  bool
}

type thriftReader struct {
	b   []byte
	pos int
	err error
}

func (r *thriftReader) byte() byte {
	if r.pos >= len(r.b) {
		r.err = errThrift
		return 0
	}
	c := r.b[r.pos]
	r.pos++
	return c
}

func (r *thriftReader) uvarint() uint64 {
	var v uint64
	for shift := 0; shift < 64; shift += 7 {
		c := r.byte()
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v
		}
	}
	r.err = errThrift
	return 0
}

func (r *thriftReader) varint() int64 {
	u := r.uvarint()
	return int64(u>>1) ^ -int64(u&1)
}

// fields calls f for each field of a struct until its stop byte.
func (r *thriftReader) fields(f func(id int, typ byte)) {
	id := 0
	for r.err == nil {
		h := r.byte()
		if h == 0 {
			return
		}
		if d := int(h >> 4); d != 0 {
			id += d
		} else {
			id = int(r.varint())
		}
		f(id, h&0x0f)
	}
}

func (r *thriftReader) skip(typ byte) {
	switch typ {
	case 1, 2: // bool in the type nibble
	case 3:
		r.byte()
	case 4, 5, 6:
		r.varint()
	case 7:
		r.pos += 8
	case 8:
		n := r.uvarint()
		if n > uint64(len(r.b)) {
			r.err = errThrift
			return
		}
		r.pos += int(n)
	case 9, 10:
		h := r.byte()
		n := uint64(h >> 4)
		if n == 15 {
			n = r.uvarint()
		}
		for i := uint64(0); i < n && r.err == nil; i++ {
			r.skip(h & 0x0f)
		}
	case 11:
		n := r.uvarint()
		if n == 0 {
			return
		}
		kv := r.byte()
		for i := uint64(0); i < n && r.err == nil; i++ {
			r.skip(kv >> 4)
			r.skip(kv & 0x0f)
		}
	case 12:
		r.fields(func(_ int, t byte) { r.skip(t) })
	default:
		r.err = errThrift
	}
	if r.pos > len(r.b) {
		r.err = errThrift
	}
}

func (r *thriftReader) pageHeader() (pageHeader, error) {
	h := pageHeader{typ: -1, compressed: -1, compressedV2: true}
	r.fields(func(id int, t byte) {
		switch {
		case id == 1 && t == 5:
			h.typ = int(r.varint())
		case id == 2 && t == 5:
			h.uncompressed = int(r.varint())
		case id == 3 && t == 5:
			h.compressed = int(r.varint())
		case id == 8 && t == 12:
			r.fields(func(id int, t byte) {
				switch {
				case id == 5 && t == 5:
					h.defLen = int(r.varint())
				case id == 6 && t == 5:
					h.repLen = int(r.varint())
				case id == 7 && (t == 1 || t == 2):
					h.compressedV2 = t == 1
				default:
					r.skip(t)
				}
			})
		default:
			r.skip(t)
		}
	})
	if r.err != nil || h.typ < 0 || h.compressed < 0 {
		return h, errThrift
	}
	return h, nil
}

// CheckCorpusPages decodes every page of the named parquet-testing files
// into a dst of exactly the declared size (with a canary behind it) and
// compares the content with oracle's. Pages with no compressed bytes (an
// empty v2 page) are skipped: there is nothing to decompress.
func CheckCorpusPages(t *testing.T, files []string, newDec func() (Decompressor, error),
	oracle func([]byte) ([]byte, error)) {
	t.Helper()
	dec, err := newDec()
	require.NoError(t, err)
	defer dec.Close()
	total := 0
	for _, name := range files {
		file, err := os.ReadFile(testcorpus.Data(t, name))
		require.NoError(t, err)
		pages, err := Pages(file)
		require.NoError(t, err, name)
		require.NotEmpty(t, pages, name)
		for _, p := range pages {
			if len(p.Data) == 0 {
				continue
			}
			dst := WithCanary(nil, p.Size)
			got, err := dec.Decompress(dst, p.Data)
			require.NoError(t, err, "%s page at %d", name, p.Offset)
			require.Len(t, got, p.Size, "%s page at %d", name, p.Offset)
			require.True(t, CanaryIntact(dst))
			want, err := oracle(p.Data)
			require.NoError(t, err, "oracle, %s page at %d", name, p.Offset)
			require.True(t, bytes.Equal(want, got), "%s page at %d differs from the oracle", name, p.Offset)
			total++
		}
	}
	t.Logf("%d pages decoded", total)
}
