package writer

import (
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/pqcodec/pqcodec/bloom"
	"github.com/pqcodec/pqcodec/codecfactory"
	"github.com/pqcodec/pqcodec/encoding/rle"
	"github.com/pqcodec/pqcodec/encryption"
	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/enctable"
)

// trialSize is about the PLAIN size of the values that measure what the
// fallback encoding makes of a dictionary-encoded chunk's values (see
// flushPage): a block of SNAPPY, which compresses 64 KiB blocks
// independently.
const trialSize = 64 << 10

// maxStep is the most levels a column writer takes between two checks of
// its page's size.
const maxStep = 1024

// chunkWriter writes the column chunk of one leaf column: it cuts the
// levels and values it is given into pages, encodes and compresses each
// page as it fills, and keeps the compressed pages until the row group is
// flushed. It reuses every buffer across pages and chunks.
type chunkWriter struct {
	leaf    *format.Node
	path    []string
	cfg     columnConfig
	codecs  *codecfactory.Factory
	typ     format.Type
	typeLen int
	maxDef  int16
	maxRep  int16
	defW    uint
	repW    uint
	// repDef[r] is the definition level of the r-th repeated node on the
	// path: a repetition level r needs the levels before and at it to be
	// defined at least that far.
	repDef []int16
	row    *enctable.Row
	dict   enctable.DictEncoder
	// dictActive is true while pages are dictionary-encoded, before the
	// chunk falls back.
	dictActive bool
	dictUsed   bool
	// dictPlain is the PLAIN size of the values of the chunk's
	// dictionary-encoded pages, dictLevels the size of their levels
	// before compression and dictOut the bytes those pages were written
	// as; fallbackRatio the bytes per PLAIN byte of values written in the
	// fallback encoding and compressed, measured on up to trialSize
	// bytes of the chunk's first page of values (0 before), whose PLAIN
	// size is trialPlain. See flushPage.
	dictPlain, dictLevels, dictOut int64
	fallbackRatio                  float64
	trialPlain                     int
	// dictStats is true when the current page's min and max are taken from
	// the distinct dictionary values of its indices when it is flushed
	// (in distinct), not from every value; dictStatsOff once a page of the
	// chunk had more than a quarter of its values distinct.
	dictStats, dictStatsOff bool
	distinct                enctable.Values
	// bloom is the chunk's bloom filter, nil when off; bloomBuf holds it
	// marshalled once the chunk is finished.
	bloom    *bloom.Filter
	bloomBuf []byte
	// queued is the number of rows of the batches given to the chunk,
	// in flight or not; async the batch in flight (WithWorkers).
	queued int64
	async  asyncState
	// WithWorkers (workers.go): the Writer's tokens of running goroutines
	// (nil without workers) and whether the column's work holds one; the
	// data pages in compression on workers, oldest first (their jobs
	// taken from jobPool).
	sem     chan struct{}
	holding bool
	pending []*pageJob

	// SizeStatistics (with statistics on): the page's BYTE_ARRAY bytes,
	// and per page the level histograms (max level + 1 counts each, for
	// levels whose max is above 0) and BYTE_ARRAY bytes, concatenated.
	pageUnenc          int64
	repHists, defHists []int64
	unenc              []int64

	// The current page.
	def, rep   []int16
	vals       enctable.Values
	pageValues int
	pageRows   int
	pageBytes  int // the PLAIN size of vals
	page       minmax

	// The chunk.
	chunk        minmax
	numLevels    int64
	numRows      int64
	nullCount    int64
	pages        pageBuf
	locs         []pageLoc
	bounds       []byte // min and max of every page, see pageLoc
	uncompressed int64
	encStats     []format.PageEncodingStats
	encodings    []format.Encoding

	// Scratch.
	body, comp, hdrBuf []byte
	trial, trialComp   []byte
	header             format.PageHeader
	syncPage           describedPage
	dictPage           []byte

	// WithEncryption (encrypt.go): nil for a column in the clear.
	crypt                  *encryption.ChunkEncryptor
	cryptPage, cryptHeader []byte
}

// pageLoc describes one data page of the chunk.
type pageLoc struct {
	offset    int64 // in chunkWriter.pages, from its start
	size      int32 // header included
	firstRow  int64
	nulls     int64
	values    int
	hasMinMax bool
	minStart  int // bounds[minStart:maxStart] is the min, bounds[maxStart:end] the max
	maxStart  int
	end       int
}

func newChunkWriter(leaf *format.Node, cfg columnConfig, codecs *codecfactory.Factory) (*chunkWriter, error) {
	e := leaf.Element
	c := &chunkWriter{leaf: leaf, path: leaf.Path(), cfg: cfg, codecs: codecs, typ: *e.Type,
		maxDef: int16(leaf.MaxDefinitionLevel), maxRep: int16(leaf.MaxRepetitionLevel)}
	if c.typ == format.FixedLenByteArray {
		if e.TypeLength == nil || *e.TypeLength <= 0 {
			return nil, fmt.Errorf("%w: FIXED_LEN_BYTE_ARRAY column %v without a positive length", ErrSchema, c.path)
		}
		c.typeLen = int(*e.TypeLength)
	}
	c.defW, c.repW = uint(bits.Len16(uint16(c.maxDef))), uint(bits.Len16(uint16(c.maxRep)))
	c.repDef = make([]int16, c.maxRep+1)
	def, rep := int16(0), int16(0)
	var path []*format.Node
	for n := leaf; n.Parent != nil; n = n.Parent {
		path = append(path, n)
	}
	for i := len(path) - 1; i >= 0; i-- {
		switch rt := path[i].Element.RepetitionType; {
		case rt != nil && *rt == format.Repeated:
			def++
			rep++
			c.repDef[rep] = def
		case rt != nil && *rt == format.Optional:
			def++
		}
	}
	if c.row = enctable.Lookup(cfg.encoding, c.typ); c.row == nil || c.row.Encode == nil {
		return nil, fmt.Errorf("%w: column %v: encoding %v does not apply to %v", ErrOption, c.path, cfg.encoding, c.typ)
	}
	if !codecs.CanCompress(cfg.codec) {
		return nil, fmt.Errorf("%w: column %v: codec %v cannot compress in this build", ErrOption, c.path, cfg.codec)
	}
	if cfg.dictionary && c.typ != format.Boolean {
		c.dict = enctable.Lookup(format.RLEDictionary, c.typ).NewDictEncoder(0, c.typeLen)
	}
	if cfg.bloomNDV > 0 && c.typ != format.Boolean {
		c.bloom = bloom.NewForNDV(cfg.bloomNDV, cfg.bloomFPP)
	}
	c.vals.Type, c.vals.TypeLength = c.typ, c.typeLen
	c.bounds = make([]byte, 0, 64) // never nil: an empty byte array is a min
	c.page, c.chunk = newMinmax(leaf), newMinmax(leaf)
	c.async.done = make(chan error, 1)
	c.resetChunk()
	return c, nil
}

func (c *chunkWriter) resetChunk() {
	c.dictActive, c.dictUsed, c.dictStatsOff = c.dict != nil, false, false
	c.dictPlain, c.dictLevels, c.dictOut, c.fallbackRatio = 0, 0, 0, 0
	if c.dict != nil {
		c.dict.Reset()
	}
	c.chunk.reset()
	if c.bloom != nil {
		c.bloom.Reset()
	}
	c.numLevels, c.numRows, c.nullCount, c.uncompressed, c.queued = 0, 0, 0, 0, 0
	c.pages.reset()
	c.locs, c.bounds = c.locs[:0], c.bounds[:0]
	c.encStats, c.encodings = c.encStats[:0], c.encodings[:0]
	c.repHists, c.defHists, c.unenc = c.repHists[:0], c.defHists[:0], c.unenc[:0]
	c.resetPage()
}

func (c *chunkWriter) resetPage() {
	c.def, c.rep = c.def[:0], c.rep[:0]
	c.vals.Int32s, c.vals.Int64s, c.vals.Int96s = c.vals.Int32s[:0], c.vals.Int64s[:0], c.vals.Int96s[:0]
	c.vals.Floats, c.vals.Doubles, c.vals.Booleans = c.vals.Floats[:0], c.vals.Doubles[:0], c.vals.Booleans[:0]
	c.vals.Bytes, c.vals.Offsets = c.vals.Bytes[:0], append(c.vals.Offsets[:0], 0)
	c.pageValues, c.pageRows, c.pageBytes, c.pageUnenc, c.trialPlain = 0, 0, 0, 0, 0
	c.page.reset()
	c.dictStats = false
}

func (c *chunkWriter) pathString() string { return fmt.Sprint(c.path) }

// check validates a batch and returns its number of levels.
func (c *chunkWriter) check(v *enctable.Values, def, rep []int16) (int, error) {
	if v.Type != c.typ {
		return 0, fmt.Errorf("%w: %v values for %v column %v", ErrType, v.Type, c.typ, c.pathString())
	}
	if c.typ == format.FixedLenByteArray && v.TypeLength != c.typeLen {
		return 0, fmt.Errorf("%w: FIXED_LEN_BYTE_ARRAY(%d) values for column %v of length %d", ErrType, v.TypeLength, c.pathString(), c.typeLen)
	}
	nv := v.Len()
	if err := checkValues(v); err != nil {
		return 0, fmt.Errorf("column %v: %w", c.pathString(), err)
	}
	if c.maxDef == 0 {
		for i, d := range def {
			if d != 0 {
				return 0, fmt.Errorf("%w: definition level %d at %d, column %v has none", ErrLevel, d, i, c.pathString())
			}
		}
		if len(def) > nv {
			return 0, fmt.Errorf("%w: column %v: %d levels for %d values", ErrNull, c.pathString(), len(def), nv)
		}
		if len(def) != 0 && len(def) < nv {
			return 0, fmt.Errorf("%w: column %v: %d definition levels for %d values", ErrLevel, c.pathString(), len(def), nv)
		}
		if len(rep) != 0 {
			return 0, fmt.Errorf("%w: repetition levels for column %v, which is not repeated", ErrLevel, c.pathString())
		}
		return nv, nil
	}
	n := len(def)
	if c.maxRep == 0 && len(rep) != 0 {
		return 0, fmt.Errorf("%w: repetition levels for column %v, which is not repeated", ErrLevel, c.pathString())
	}
	if c.maxRep > 0 && len(rep) != n {
		return 0, fmt.Errorf("%w: column %v: %d repetition levels for %d definition levels", ErrLevel, c.pathString(), len(rep), n)
	}
	values := 0
	for i, d := range def {
		if d < 0 || d > c.maxDef {
			return 0, fmt.Errorf("%w: definition level %d at %d, column %v has 0..%d", ErrLevel, d, i, c.pathString(), c.maxDef)
		}
		if d == c.maxDef {
			values++
		}
	}
	if values != nv {
		return 0, fmt.Errorf("%w: column %v: definition levels hold %d values, the batch %d", ErrLevel, c.pathString(), values, nv)
	}
	if c.maxRep > 0 && n > 0 {
		if rep[0] != 0 {
			return 0, fmt.Errorf("%w: column %v: batch starts with repetition level %d: batches hold whole rows", ErrRepetition, c.pathString(), rep[0])
		}
		for i, r := range rep {
			if r < 0 || r > c.maxRep {
				return 0, fmt.Errorf("%w: repetition level %d at %d, column %v has 0..%d", ErrLevel, r, i, c.pathString(), c.maxRep)
			}
			if r > 0 && (def[i] < c.repDef[r] || def[i-1] < c.repDef[r]) {
				return 0, fmt.Errorf("%w: column %v: level %d repeats list %d after definition level %d", ErrRepetition, c.pathString(), i, r, def[i-1])
			}
		}
	}
	return n, nil
}

// checkValues checks that v's byte-array offsets describe its bytes.
func checkValues(v *enctable.Values) error {
	switch v.Type {
	case format.ByteArray:
		if len(v.Offsets) == 0 {
			if len(v.Bytes) != 0 {
				return fmt.Errorf("%w: byte array bytes without offsets", ErrType)
			}
			return nil
		}
		prev := v.Offsets[0]
		if prev < 0 {
			return fmt.Errorf("%w: negative byte array offset", ErrType)
		}
		for _, o := range v.Offsets[1:] {
			if o < prev {
				return fmt.Errorf("%w: decreasing byte array offsets", ErrType)
			}
			prev = o
		}
		if int(prev) > len(v.Bytes) {
			return fmt.Errorf("%w: byte array offset %d past %d bytes", ErrType, prev, len(v.Bytes))
		}
	case format.FixedLenByteArray:
		if v.TypeLength <= 0 || len(v.Bytes)%v.TypeLength != 0 {
			return fmt.Errorf("%w: %d bytes of FIXED_LEN_BYTE_ARRAY(%d) values", ErrType, len(v.Bytes), v.TypeLength)
		}
	}
	return nil
}

// write appends a batch of n levels (checked by check).
func (c *chunkWriter) write(v *enctable.Values, def, rep []int16, n int) error {
	vi := 0
	for i := 0; i < n; {
		startsRow := c.maxRep == 0 || rep[i] == 0
		if startsRow && c.pageLevels() > 0 && c.pageFull() {
			if err := c.flushPage(); err != nil {
				return err
			}
		}
		end := min(n, i+c.step())
		if c.maxRep > 0 {
			for end < n && rep[end] != 0 {
				end++
			}
		}
		nv, rows := end-i, end-i
		if c.maxDef > 0 {
			nv = 0
			for _, d := range def[i:end] {
				if d == c.maxDef {
					nv++
				}
			}
			c.def = append(c.def, def[i:end]...)
		}
		if c.maxRep > 0 {
			rows = 0
			for _, r := range rep[i:end] {
				if r == 0 {
					rows++
				}
			}
			c.rep = append(c.rep, rep[i:end]...)
		}
		if err := c.putValues(v, vi, vi+nv); err != nil {
			return err
		}
		c.pageValues += nv
		c.pageRows += rows
		vi += nv
		i = end
		if c.dictActive && c.dictPlain == 0 && c.trialPlain >= trialSize && 10*c.dict.Len() >= 9*c.pageValues {
			// The chunk's first page of values, nine in ten of them new
			// so far: the page is cut once the trial's values are in and
			// the dictionary's rule (flushPage) decides now, before the
			// dictionary grows to the whole page's values (a page of ids,
			// timestamps) only to be dropped.
			if err := c.flushPage(); err != nil {
				return err
			}
			continue
		}
		if c.dictActive && c.dict.DictSize() >= c.cfg.dictLimit {
			// Fall back: the page so far keeps its indices, the rest of
			// the chunk takes the fallback encoding.
			if err := c.flushPage(); err != nil {
				return err
			}
			c.dictActive = false
		}
	}
	return nil
}

// pageLevels returns the number of levels of the current page.
func (c *chunkWriter) pageLevels() int {
	if c.maxDef > 0 {
		return len(c.def)
	}
	return c.pageValues
}

// valueSize returns the bytes of a value of the column's type in a Values
// (c.typ is valid, a FIXED_LEN_BYTE_ARRAY's length positive), and 8 for a
// BYTE_ARRAY, whose size is only guessed.
func (c *chunkWriter) valueSize() int {
	if c.typ == format.ByteArray {
		return 8
	}
	return enctable.ElemSize(c.typ, c.typeLen)
}

// estimate returns the size of the current page as it would be encoded, a
// little above it for most encodings.
func (c *chunkWriter) estimate() int {
	levels := (len(c.def)*int(c.defW) + len(c.rep)*int(c.repW) + 7) / 8
	if c.dictActive {
		return levels + (c.dict.NumIndices()*bits.Len(uint(c.dict.Len()))+7)/8 + 1
	}
	return levels + c.pageBytes
}

func (c *chunkWriter) pageFull() bool {
	return c.pageRows >= c.cfg.pageRows || c.estimate() >= c.cfg.pageSize
}

// step returns how many levels to take before the next check of the page.
func (c *chunkWriter) step() int {
	left := (c.cfg.pageSize - c.estimate()) / c.valueSize()
	return max(1, min(left, maxStep, c.cfg.pageRows-c.pageRows))
}

// putValues adds values [from, to) of v to the current page.
func (c *chunkWriter) putValues(v *enctable.Values, from, to int) error {
	if from == to {
		return nil
	}
	if c.cfg.statistics {
		if c.pageValues == 0 { // the page's first values
			c.dictStats = c.dictActive && !c.dictStatsOff
			if c.dictActive {
				c.dict.TrackDistinct(c.dictStats) // no index pending
			}
		}
		if !c.dictStats {
			c.page.update(v, from, to)
		}
	}
	if c.bloom != nil {
		c.insertBloom(v, from, to)
	}
	// pageBytes is the PLAIN size of the page's values, in dictionary mode
	// too, where it decides whether the dictionary pays off.
	var plainBytes int
	if c.typ == format.ByteArray {
		lo, hi := int(v.Offsets[from]), int(v.Offsets[to])
		if int64(c.pageBytes)+int64(hi-lo) > math.MaxInt32 {
			return fmt.Errorf("%w: column %v: more than 2 GiB of byte arrays in one page", ErrTooLarge, c.pathString())
		}
		plainBytes = 4*(to-from) + hi - lo
		c.pageUnenc += int64(hi - lo)
	} else {
		plainBytes = (to - from) * c.valueSize()
	}
	c.pageBytes += plainBytes
	if c.dictActive {
		if c.fallbackRatio == 0 && c.trialPlain < trialSize {
			// Kept for the trial of the fallback encoding (flushPage).
			c.vals.AppendRange(v, from, to)
			c.trialPlain += plainBytes
		}
		_, err := c.dict.Put(v, from, to) // no limit: never full
		return err
	}
	c.vals.AppendRange(v, from, to)
	return nil
}

// insertBloom inserts the hashes of values [from, to) of v into the
// chunk's bloom filter.
func (c *chunkWriter) insertBloom(v *enctable.Values, from, to int) {
	f := c.bloom
	switch c.typ {
	case format.Int32:
		for _, x := range v.Int32s[from:to] {
			f.Insert(bloom.HashInt32(x))
		}
	case format.Int64:
		for _, x := range v.Int64s[from:to] {
			f.Insert(bloom.HashInt64(x))
		}
	case format.Int96:
		for _, x := range v.Int96s[from:to] {
			f.Insert(bloom.HashInt96(x))
		}
	case format.Float:
		for _, x := range v.Floats[from:to] {
			f.Insert(bloom.HashFloat32(x))
		}
	case format.Double:
		for _, x := range v.Doubles[from:to] {
			f.Insert(bloom.HashFloat64(x))
		}
	case format.FixedLenByteArray:
		n := c.typeLen
		for i := from; i < to; i++ {
			f.Insert(bloom.HashBytes(v.Bytes[i*n : (i+1)*n]))
		}
	case format.ByteArray:
		for i := from; i < to; i++ {
			f.Insert(bloom.HashBytes(v.Bytes[v.Offsets[i]:v.Offsets[i+1]]))
		}
	}
}

// flushPage encodes, compresses and appends the current page to the chunk.
// Under WithWorkers, a page in the fallback encoding is compressed on a
// worker (startCompress) and appended later, in order (reap); a
// dictionary-encoded page is compressed here, since whether the next page
// keeps the dictionary depends on its compressed size.
func (c *chunkWriter) flushPage() error {
	n := c.pageLevels()
	if n == 0 {
		return nil
	}
	if err := c.reapReady(); err != nil {
		return err
	}
	if c.dictStats {
		// One min/max update per distinct value of the page, before
		// AppendIndexPage clears the indices.
		d := &c.distinct
		d.Type, d.TypeLength = c.typ, c.typeLen
		d.Truncate(0)
		c.dict.AppendDistinct(d)
		c.page.update(d, 0, d.Len())
		c.dictStatsOff = d.Len() > c.pageValues/4
	}
	var err error
	body := c.body[:0]
	var repLen, defLen int
	if c.cfg.version == 1 {
		if c.maxRep > 0 {
			body, _ = rle.EncodeWithPrefix(body, c.rep, c.repW)
		}
		if c.maxDef > 0 {
			body, _ = rle.EncodeWithPrefix(body, c.def, c.defW)
		}
	} else {
		if c.maxRep > 0 {
			body, _ = rle.Encode(body, c.rep, c.repW)
		}
		repLen = len(body)
		if c.maxDef > 0 {
			body, _ = rle.Encode(body, c.def, c.defW)
		}
		defLen = len(body) - repLen
	}
	levelsEnd := len(body)
	enc := c.row.Encoding
	if c.dictActive {
		enc = format.RLEDictionary
		c.dictUsed = true
		body = c.dict.AppendIndexPage(body)
		if c.fallbackRatio == 0 && c.trialPlain > 0 {
			// The first values of the chunk's first page of values, kept
			// in c.vals, are also encoded in the fallback encoding and
			// compressed, to measure what the dictionary saves.
			trial, err := c.row.Encode(c.trial[:0], &c.vals)
			if err != nil {
				return fmt.Errorf("column %v: %w", c.pathString(), err)
			}
			c.trial = trial
			out, _, err := c.compressPage(&c.trialComp, trial, 0)
			if err != nil {
				return err
			}
			c.fallbackRatio = float64(max(len(out), 1)) / float64(c.trialPlain)
		}
	} else if body, err = c.row.Encode(body, &c.vals); err != nil {
		return fmt.Errorf("column %v: %w", c.pathString(), err)
	}
	c.body = body
	if len(body) > math.MaxInt32 {
		return fmt.Errorf("%w: column %v: page of %d bytes", ErrTooLarge, c.pathString(), len(body))
	}
	if c.sem != nil && enc != format.RLEDictionary {
		j, err := c.freeJob()
		if err != nil {
			return err
		}
		j.body, c.body = body, j.body[:0]
		j.levelsEnd = levelsEnd
		c.describe(&j.page, n, enc, len(body), repLen, defLen)
		c.startCompress(j)
		return nil
	}
	out, _, err := c.compressPage(&c.comp, body, levelsEnd)
	if err != nil {
		return err
	}
	fallBack := false
	if enc == format.RLEDictionary && c.pageValues > 0 {
		// The chunk falls back after a page when its dictionary-encoded
		// pages and its dictionary (estimated at the fallback's ratio)
		// are no smaller than those pages' values would be in the
		// fallback encoding, compressed: the dictionary does not pay off.
		// After the first page this is parquet-java's rule, on the bytes
		// written rather than before compression; checked after every
		// page it also stops a dictionary of values that keep coming new
		// (a random walk, ids), whose indices compress worse than the
		// values, long before its size limit, where arrow-cpp and
		// arrow-rs keep it growing up to the limit.
		//
		// The levels are counted before compression on the fallback's
		// side, after on the dictionary's: a bias to keep the dictionary.
		c.dictPlain += int64(c.pageBytes)
		c.dictLevels += int64(levelsEnd)
		c.dictOut += int64(len(out))
		r := c.fallbackRatio
		fallBack = float64(c.dictOut)+r*float64(c.dict.DictSize()) >= r*float64(c.dictPlain)+float64(c.dictLevels)
	}
	p := &c.syncPage
	c.describe(p, n, enc, len(body), repLen, defLen)
	if err := c.appendOut(p, out); err != nil {
		return err
	}
	if fallBack {
		c.dictActive = false
	}
	return nil
}

// describedPage is a data page encoded and described, waiting for its
// compressed bytes: its header but for their size (and CRC), and its
// location but for its offset and size.
type describedPage struct {
	h       format.PageHeader
	loc     pageLoc
	bodyLen int
}

// describe fills p from the current page of n levels, encoded in enc to
// bodyLen bytes (the v2 levels' lengths repLen and defLen), adds the
// page's statistics, histograms and counts to the chunk's and resets the
// current page: everything about the page but its compressed bytes, so
// that the next page can fill while it is compressed.
func (c *chunkWriter) describe(p *describedPage, n int, enc format.Encoding, bodyLen, repLen, defLen int) {
	nulls := int64(n - c.pageValues)
	p.loc = pageLoc{firstRow: c.numRows, nulls: nulls, values: c.pageValues}
	p.bodyLen = bodyLen
	h := &p.h
	*h = format.PageHeader{UncompressedPageSize: int32(bodyLen)}
	var st *format.Statistics
	if c.cfg.version == 1 {
		h.Type, h.HasDataPageHeader = format.DataPage, true
		h.DataPageHeader = format.DataPageHeader{NumValues: int32(n), Encoding: enc,
			DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE}
		st = &h.DataPageHeader.Statistics
		h.DataPageHeader.HasStatistics = c.cfg.statistics
	} else {
		h.Type, h.HasDataPageHeaderV2 = format.DataPageV2, true
		h.DataPageHeaderV2 = format.DataPageHeaderV2{NumValues: int32(n), NumNulls: int32(nulls), NumRows: int32(c.pageRows),
			Encoding: enc, DefinitionLevelsByteLength: int32(defLen), RepetitionLevelsByteLength: int32(repLen),
			IsCompressed: c.compresses(bodyLen, repLen+defLen), HasIsCompressed: true}
		st = &h.DataPageHeaderV2.Statistics
		h.DataPageHeaderV2.HasStatistics = c.cfg.statistics
	}
	if c.cfg.statistics {
		loc := &p.loc
		st.NullCount, st.HasNullCount = nulls, true
		loc.minStart = len(c.bounds)
		if c.page.has {
			loc.hasMinMax = true
			c.bounds = c.page.appendValue(c.bounds, false)
			loc.maxStart = len(c.bounds)
			c.bounds = c.page.appendValue(c.bounds, true)
			c.setMinMax(st, &c.page, c.bounds[loc.minStart:loc.maxStart], c.bounds[loc.maxStart:])
		} else {
			loc.maxStart = len(c.bounds)
		}
		loc.end = len(c.bounds)
		c.chunk.merge(&c.page)
		c.repHists = appendHistogram(c.repHists, c.rep, c.maxRep)
		c.defHists = appendHistogram(c.defHists, c.def, c.maxDef)
		c.unenc = append(c.unenc, c.pageUnenc)
	}
	c.countEncoding(h.Type, enc)
	c.numLevels += int64(n)
	c.numRows += int64(c.pageRows)
	c.nullCount += nulls
	c.resetPage()
}

// appendOut appends page p, compressed to out, to the chunk's pages.
func (c *chunkWriter) appendOut(p *describedPage, out []byte) error {
	if len(out) > math.MaxInt32 {
		return fmt.Errorf("%w: column %v: compressed page of %d bytes", ErrTooLarge, c.pathString(), len(out))
	}
	p.h.CompressedPageSize = int32(len(out))
	p.loc.offset = c.pages.len()
	blk := c.pages.block(len(out) + 256) // 256: the header, most often
	start := len(blk)
	blk, hlen, err := c.appendPage(blk, &p.h, out, len(c.locs)) // encrypt.go
	if err != nil {
		return err
	}
	c.pages.set(blk)
	p.loc.size = int32(len(blk) - start)
	c.locs = append(c.locs, p.loc)
	c.uncompressed += int64(hlen + p.bodyLen)
	return nil
}

// compresses reports whether a page of bodyLen bytes whose levels take
// the first levelsEnd is compressed (see compressPage).
func (c *chunkWriter) compresses(bodyLen, levelsEnd int) bool {
	// A v2 page without values (nulls only) leaves its empty values
	// section uncompressed (is_compressed false): arrow-go v18.8 cannot
	// decompress an empty BROTLI stream nor hyparquet an empty LZ4 block,
	// and the spec lets a v2 page say its values are not compressed.
	return c.cfg.codec != codecfactory.Uncompressed && (c.cfg.version == 1 || bodyLen > levelsEnd)
}

// compressPage returns the bytes after the header of a page whose levels
// are body[:levelsEnd] and values body[levelsEnd:], compressed into *buf
// (v1 compresses levels and values, v2 the values only), and whether they
// are compressed.
func (c *chunkWriter) compressPage(buf *[]byte, body []byte, levelsEnd int) ([]byte, bool, error) {
	if !c.compresses(len(body), levelsEnd) {
		return body, false, nil
	}
	from := 0
	b := (*buf)[:0]
	if c.cfg.version == 2 {
		from = levelsEnd
		b = append(b, body[:levelsEnd]...)
	}
	b, err := c.codecs.Compress(c.cfg.codec, b, body[from:])
	*buf = b
	if err != nil {
		return nil, false, fmt.Errorf("column %v: %w", c.pathString(), err)
	}
	return b, true, nil
}

// setMinMax sets the min and max of st to lo and hi, truncated under
// WithStatisticsTruncate, with their exactness.
func (c *chunkWriter) setMinMax(st *format.Statistics, m *minmax, lo, hi []byte) {
	loExact, hiExact := true, true
	if m.kind == mmBytes && c.cfg.statTrunc > 0 {
		lo, loExact = truncateMin(lo, c.cfg.statTrunc)
		hi, hiExact = truncateMax(hi, c.cfg.statTrunc)
	}
	st.MinValue, st.MaxValue = lo, hi
	st.IsMinValueExact, st.IsMaxValueExact, st.HasIsMinExact, st.HasIsMaxExact = loExact, hiExact, true, true
	if m.legacy() {
		st.Min, st.Max = lo, hi
	}
}

// appendHistogram appends the counts of levels 0..max in levels to dst,
// nothing when max is 0.
func appendHistogram(dst []int64, levels []int16, max int16) []int64 {
	if max == 0 {
		return dst
	}
	start := len(dst)
	dst = append(dst, make([]int64, max+1)...)
	h := dst[start:]
	if max == 1 {
		// A sum, without the chain of increments of one counter in memory
		// that the loop below makes (about 2.5 ns per level).
		ones := 0
		for _, l := range levels {
			ones += int(l)
		}
		h[0], h[1] = int64(len(levels)-ones), int64(ones)
		return dst
	}
	for _, l := range levels {
		h[l]++ // checked: 0 <= l <= max
	}
	return dst
}

// sumHistograms returns the sum of the per-page histograms of width n
// concatenated in pages, nil when there are none.
func sumHistograms(pages []int64, n int) []int64 {
	if len(pages) == 0 || n == 0 {
		return nil
	}
	sum := make([]int64, n)
	for i, x := range pages {
		sum[i%n] += x
	}
	return sum
}

func (c *chunkWriter) countEncoding(t format.PageType, e format.Encoding) {
	for i := range c.encStats {
		if s := &c.encStats[i]; s.PageType == t && s.Encoding == e {
			s.Count++
			return
		}
	}
	c.encStats = append(c.encStats, format.PageEncodingStats{PageType: t, Encoding: e, Count: 1})
	if !slices.Contains(c.encodings, e) {
		c.encodings = append(c.encodings, e)
	}
}

// rows returns the number of rows started in the chunk so far.
func (c *chunkWriter) rows() int64 { return c.numRows + int64(c.pageRows) }

// buffered returns the bytes the chunk holds: its compressed pages and an
// estimate of its current page and dictionary.
func (c *chunkWriter) buffered() int64 {
	n := c.pages.len() + int64(c.estimate())
	if c.dictUsed {
		n += int64(c.dict.DictSize())
	}
	return n
}

// finish flushes the last page and builds the dictionary page, leaving
// c.dictPage and c.pages ready to be written.
func (c *chunkWriter) finish() error {
	if err := c.flushPage(); err != nil {
		return err
	}
	if err := c.reapUntil(0); err != nil {
		return err
	}
	c.dictPage = c.dictPage[:0]
	c.bloomBuf = c.bloomBuf[:0]
	if c.bloom != nil {
		c.bloomBuf = c.bloom.MarshalTo(c.bloomBuf)
	}
	if !c.dictUsed {
		return nil
	}
	body := c.dict.AppendDictionaryPage(c.body[:0])
	c.body = body
	if len(body) > math.MaxInt32 {
		return fmt.Errorf("%w: column %v: dictionary page of %d bytes", ErrTooLarge, c.pathString(), len(body))
	}
	out := body
	if c.cfg.codec != codecfactory.Uncompressed {
		var err error
		if c.comp, err = c.codecs.Compress(c.cfg.codec, c.comp[:0], body); err != nil {
			return fmt.Errorf("column %v: %w", c.pathString(), err)
		}
		out = c.comp
	}
	h := &c.header
	*h = format.PageHeader{Type: format.DictionaryPage, UncompressedPageSize: int32(len(body)),
		CompressedPageSize: int32(len(out)), HasDictionaryPageHeader: true,
		DictionaryPageHeader: format.DictionaryPageHeader{NumValues: int32(c.dict.Len()), Encoding: format.Plain}}
	var hlen int
	var err error
	if c.dictPage, hlen, err = c.appendPage(c.dictPage, h, out, 0); err != nil { // encrypt.go
		return err
	}
	c.uncompressed += int64(hlen + len(body))
	return nil
}

// metadata returns the chunk's metadata once it is written at offset start,
// with its page indexes (nil when off or not applicable).
func (c *chunkWriter) metadata(start int64) (format.ColumnChunk, *format.ColumnIndex, *format.OffsetIndex) {
	dataStart := start + int64(len(c.dictPage))
	encs := make([]format.Encoding, 0, len(c.encodings)+2)
	stats := slices.Clone(c.encStats)
	if c.dictUsed {
		encs = append(encs, format.Plain)
		stats = append([]format.PageEncodingStats{{PageType: format.DictionaryPage, Encoding: format.Plain, Count: 1}}, stats...)
	}
	if c.maxDef > 0 || c.maxRep > 0 {
		encs = append(encs, format.RLE)
	}
	for _, e := range c.encodings {
		if !slices.Contains(encs, e) {
			encs = append(encs, e)
		}
	}
	// In the order of their enum values, as arrow-rs lists them: parquet-go
	// takes the first of PLAIN and RLE in the list as the encoding of a
	// column (File.Schema), so a list that starts with the levels' RLE made a
	// parquet-go writer copying our rows encode BYTE_ARRAY values as RLE and
	// fail (scripts/difftest, reader parquet-go).
	slices.Sort(encs)
	md := &format.ColumnMetaData{
		Type: c.typ, Encodings: encs, PathInSchema: c.path, Codec: format.CompressionCodec(c.cfg.codec),
		NumValues: c.numLevels, TotalUncompressedSize: c.uncompressed,
		TotalCompressedSize: int64(len(c.dictPage)) + c.pages.len(), DataPageOffset: dataStart,
		EncodingStats: stats,
	}
	if c.dictUsed {
		md.DictionaryPageOffset = &start
	}
	if c.cfg.statistics {
		s := &format.Statistics{NullCount: c.nullCount, HasNullCount: true}
		if c.chunk.has {
			// Non-nil even when empty: an empty byte array is a min.
			c.setMinMax(s, &c.chunk, c.chunk.appendValue([]byte{}, false), c.chunk.appendValue([]byte{}, true))
		}
		md.Statistics = s
		// SizeStatistics as arrow-rs writes them: the BYTE_ARRAY bytes
		// for BYTE_ARRAY columns, each level histogram when its max
		// level is above 0.
		ss := &format.SizeStatistics{RepetitionLevelHistogram: sumHistograms(c.repHists, int(c.maxRep)+1),
			DefinitionLevelHistogram: sumHistograms(c.defHists, int(c.maxDef)+1)}
		if c.typ == format.ByteArray {
			var n int64
			for _, x := range c.unenc {
				n += x
			}
			ss.UnencodedByteArrayDataBytes = &n
		}
		if ss.UnencodedByteArrayDataBytes != nil || ss.RepetitionLevelHistogram != nil || ss.DefinitionLevelHistogram != nil {
			md.SizeStatistics = ss
		}
	}
	cc := format.ColumnChunk{FileOffset: start, MetaData: md}
	if !c.cfg.pageIndex {
		return cc, nil, nil
	}
	oi := &format.OffsetIndex{PageLocations: make([]format.PageLocation, len(c.locs))}
	for i, l := range c.locs {
		oi.PageLocations[i] = format.PageLocation{Offset: dataStart + l.offset, CompressedPageSize: l.size, FirstRowIndex: l.firstRow}
	}
	if c.cfg.statistics && c.typ == format.ByteArray {
		oi.UnencodedByteArrayDataBytes = slices.Clone(c.unenc)
	}
	return cc, c.columnIndex(), oi
}

// columnIndex returns the chunk's ColumnIndex, or nil when it cannot have
// one: no statistics, an order without min/max, or a page of values
// without a min and max (only NaNs), as parquet-java leaves it out.
func (c *chunkWriter) columnIndex() *format.ColumnIndex {
	if !c.cfg.statistics || c.chunk.kind == mmNone {
		return nil
	}
	n := len(c.locs)
	ci := &format.ColumnIndex{NullPages: make([]bool, n), MinValues: make([][]byte, n), MaxValues: make([][]byte, n),
		NullCounts: make([]int64, n)}
	asc, desc := true, true
	var prevMin, prevMax []byte
	for i, l := range c.locs {
		ci.NullCounts[i] = l.nulls
		if l.values == 0 {
			ci.NullPages[i] = true
			ci.MinValues[i], ci.MaxValues[i] = []byte{}, []byte{}
			continue
		}
		if !l.hasMinMax {
			return nil
		}
		lo, hi := c.bounds[l.minStart:l.maxStart], c.bounds[l.maxStart:l.end]
		if prevMin != nil {
			a, b := c.chunk.cmpEncoded(prevMin, lo), c.chunk.cmpEncoded(prevMax, hi)
			asc = asc && a <= 0 && b <= 0
			desc = desc && a >= 0 && b >= 0
		}
		prevMin, prevMax = lo, hi
		if c.chunk.kind == mmBytes && c.cfg.truncate > 0 {
			lo, _ = truncateMin(lo, c.cfg.truncate)
			hi, _ = truncateMax(hi, c.cfg.truncate)
		}
		ci.MinValues[i], ci.MaxValues[i] = slices.Clone(lo), slices.Clone(hi)
	}
	if len(c.repHists) > 0 {
		ci.RepetitionLevelHistograms = slices.Clone(c.repHists)
	}
	if len(c.defHists) > 0 {
		ci.DefinitionLevelHistograms = slices.Clone(c.defHists)
	}
	switch {
	case asc:
		ci.BoundaryOrder = format.Ascending
	case desc:
		ci.BoundaryOrder = format.Descending
	}
	return ci
}
