package dictionary

import (
	"encoding/binary"
	"math/bits"
)

// hashTable maps fixed-width keys (the bits of 4- and 8-byte values) to
// dictionary indices, with open addressing and linear probing over slots
// that hold a key beside its index, so a probe touches one cache line. It
// is filled at most a quarter or half (see maxLoad), and, once grown,
// reset without freeing, so a warm Encoder allocates nothing.
type hashTable[K uint32 | uint64] struct {
	slots []entry[K]
	n     int
	shift uint // 64 - log2(len(slots))
}

type entry[K uint32 | uint64] struct {
	key K
	ix  int32 // index + 1; 0 marks an empty slot
}

const fibonacci = 0x9E3779B97F4A7C15

func (t *hashTable[K]) reset() {
	clear(t.slots)
	t.n = 0
}

// lookup writes to out the indices of the leading keys that are in the
// table and returns how many it wrote: len(keys), or the position of the
// first key not in the table. out must be as long as keys.
func (t *hashTable[K]) lookup(keys []K, out []uint32) int {
	if t.slots == nil {
		t.grow()
	}
	slots, shift := t.slots, t.shift
	mask := uint64(len(slots) - 1)
	out = out[:len(keys)]
	for i, k := range keys {
		s := (uint64(k) * fibonacci) >> shift
		for {
			e := &slots[s&mask]
			if e.key == k && e.ix != 0 {
				out[i] = uint32(e.ix - 1)
				break
			}
			if e.ix == 0 {
				return i
			}
			s++
		}
	}
	return len(keys)
}

// insert stores ix for k, which is not in the table, growing the table
// past maxLoad.
func (t *hashTable[K]) insert(k K, ix int32) {
	if t.slots == nil {
		t.grow()
	}
	t.put(k, ix+1)
	if t.n++; t.n > maxLoad(len(t.slots)) {
		t.grow()
	}
}

// put stores the slot value ix1 (index + 1) for k in the first free slot
// of its probe sequence.
func (t *hashTable[K]) put(k K, ix1 int32) {
	mask := uint64(len(t.slots) - 1)
	s := (uint64(k) * fibonacci) >> t.shift
	for t.slots[s&mask].ix != 0 {
		s++
	}
	t.slots[s&mask] = entry[K]{k, ix1}
}

// maxLoad returns how many keys a table of n slots may hold: a quarter up
// to 64 Ki slots, half beyond. Below a quarter most keys sit in their first
// slot, so the probe loop's branches are predicted (a lookup of smooth
// doubles costs about 40% less than at half full, in BenchmarkPut); beyond,
// the memory matters more.
func maxLoad(n int) int {
	if n <= 1<<16 {
		return n / 4
	}
	return n / 2
}

func (t *hashTable[K]) grow() {
	old := t.slots
	size := max(1024, 2*len(old))
	t.slots = make([]entry[K], size)
	t.shift = uint(64 - bits.TrailingZeros(uint(size)))
	for _, e := range old {
		if e.ix != 0 {
			t.put(e.key, e.ix)
		}
	}
}

// bytesTable maps byte strings, kept by the caller as values[offsets[i]:
// offsets[i+1]], to their index i, with open addressing and linear probing.
// A value of up to 16 bytes is held whole in its slot (two words and the
// length), so finding it compares words and never reads the dictionary; a
// longer one is held by a 64-bit hash and compared with the dictionary's
// copy when the hashes match. It is filled at most as [maxLoad] says.
type bytesTable struct {
	slots []bytesEntry
	n     int
	shift uint
	seed  uint64
}

// bytesKey is what a slot holds of a value: see [keyOf].
type bytesKey struct {
	a, c uint64
	n    int32
}

type bytesEntry struct {
	bytesKey
	ix int32 // index + 1; 0 marks an empty slot
}

func (t *bytesTable) reset() {
	clear(t.slots)
	t.n = 0
}

// find returns the index of v, or -1 when it is absent, and its key.
// offsets locate the values of the indices stored.
func (t *bytesTable) find(v, values []byte, offsets []int32) (int32, bytesKey) {
	k := keyOf(v)
	slots := t.slots
	mask := uint64(len(slots) - 1)
	for s := t.hash(k) >> t.shift; ; s++ {
		e := &slots[s&mask]
		if e.bytesKey == k && e.ix != 0 {
			ix := e.ix - 1
			if k.n <= 16 || string(values[offsets[ix]:offsets[ix+1]]) == string(v) {
				return ix, k
			}
		}
		if e.ix == 0 {
			return -1, k
		}
	}
}

// insert stores ix for the absent value of key k, growing the table past
// maxLoad.
func (t *bytesTable) insert(k bytesKey, ix int32) {
	if t.slots == nil {
		t.grow()
	}
	t.put(bytesEntry{k, ix + 1})
	if t.n++; t.n > maxLoad(len(t.slots)) {
		t.grow()
	}
}

func (t *bytesTable) put(e bytesEntry) {
	mask := uint64(len(t.slots) - 1)
	s := t.hash(e.bytesKey) >> t.shift
	for t.slots[s&mask].ix != 0 {
		s++
	}
	t.slots[s&mask] = e
}

func (t *bytesTable) grow() {
	old := t.slots
	size := max(1024, 2*len(old))
	t.slots = make([]bytesEntry, size)
	t.shift = uint(64 - bits.TrailingZeros(uint(size)))
	for _, e := range old {
		if e.ix != 0 {
			t.put(e)
		}
	}
}

// hash returns the slot hash of k under the table's seed. The seed is
// random per table, so crafted values cannot make probe sequences long for
// every writer.
func (t *bytesTable) hash(k bytesKey) uint64 {
	return mix(k.a^hashK0^t.seed, k.c^hashK1^uint64(k.n))
}

// mix multiplies a and b to 128 bits and folds the halves: the mixing step
// of wyhash-style hashes, which spreads every input bit over the result.
func mix(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

const (
	hashK0 = 0xa0761d6478bd642f
	hashK1 = 0xe7037ed1a0b428db
)

// keyOf returns the key of b. Up to 16 bytes the key holds b exactly: its
// first and last 8 bytes (4 below 8 bytes, overlapping when shorter than
// 16 or 8), or below 4 bytes its first, middle and last byte, with the
// length. A longer value's key is a 64-bit hash of its bytes (one
// multiplication per 16) with the length.
func keyOf(b []byte) bytesKey {
	n := len(b)
	k := bytesKey{n: int32(n)}
	switch {
	case n >= 8 && n <= 16:
		k.a = binary.LittleEndian.Uint64(b)
		k.c = binary.LittleEndian.Uint64(b[n-8:])
	case n >= 4 && n < 8:
		k.a = uint64(binary.LittleEndian.Uint32(b))
		k.c = uint64(binary.LittleEndian.Uint32(b[n-4:]))
	case n > 0 && n < 4:
		k.a = uint64(b[0])<<16 | uint64(b[n>>1])<<8 | uint64(b[n-1])
	case n > 16:
		h := uint64(n)
		for p := b; len(p) > 16; p = p[16:] {
			h = mix(binary.LittleEndian.Uint64(p)^hashK1, binary.LittleEndian.Uint64(p[8:])^h)
		}
		k.a = mix(binary.LittleEndian.Uint64(b[n-16:])^h^hashK0, binary.LittleEndian.Uint64(b[n-8:])^hashK1)
	}
	return k
}
