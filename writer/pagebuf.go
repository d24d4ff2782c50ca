package writer

// pageBuf holds the compressed pages of a column chunk, header included,
// in blocks: a page is appended to the last block, or to a new one when it
// does not fit. Unlike one growing slice, nothing is copied as the chunk
// grows, and a chunk of n bytes costs at most about 1.5n bytes allocated,
// not the 2n to 5n of doubling (or appending) with its copies. The blocks
// are kept across chunks, so a warm chunk writer allocates nothing.
type pageBuf struct {
	blocks [][]byte // blocks[:cur+1] hold the pages, the rest are spare
	cur    int
	n      int64 // bytes held
}

const (
	minPageBlock = 64 << 10
	maxPageBlock = 4 << 20
)

// len returns the number of bytes held.
func (p *pageBuf) len() int64 { return p.n }

// reset empties the buffer, keeping its blocks.
func (p *pageBuf) reset() {
	for i := range min(p.cur+1, len(p.blocks)) {
		p.blocks[i] = p.blocks[i][:0]
	}
	p.cur, p.n = 0, 0
}

// block returns the block to append a page of need bytes to (it may
// grow past its capacity if the page turns out larger); the caller hands
// the block back, appended to, with set.
func (p *pageBuf) block(need int) []byte {
	if len(p.blocks) > 0 {
		if b := p.blocks[p.cur]; cap(b)-len(b) >= need {
			return b
		}
		if len(p.blocks[p.cur]) > 0 {
			p.cur++
		}
		if p.cur < len(p.blocks) && cap(p.blocks[p.cur]) >= need {
			return p.blocks[p.cur]
		}
	}
	// Blocks of half what the chunk holds so far, within bounds: the
	// capacity grows by half, so at most a third of it is unused, in a
	// few blocks for a large chunk.
	b := make([]byte, 0, max(need, min(max(int(p.n/2), minPageBlock), maxPageBlock)))
	if p.cur < len(p.blocks) {
		p.blocks[p.cur] = b
	} else {
		p.blocks = append(p.blocks, b)
	}
	return b
}

// set hands back the block returned by block, appended to.
func (p *pageBuf) set(b []byte) {
	p.n += int64(len(b) - len(p.blocks[p.cur]))
	p.blocks[p.cur] = b
}

// chunks returns the blocks holding the pages, in order.
func (p *pageBuf) chunks() [][]byte {
	if len(p.blocks) == 0 {
		return nil
	}
	return p.blocks[:p.cur+1]
}

// capacity returns the bytes allocated to the blocks.
func (p *pageBuf) capacity() int64 {
	var n int64
	for _, b := range p.blocks {
		n += int64(cap(b))
	}
	return n
}
