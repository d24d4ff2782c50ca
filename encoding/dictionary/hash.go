package dictionary

// hashTable maps fixed-width keys (the bits of 4- and 8-byte values) to
// dictionary indices, with open addressing and linear probing: about twice
// as fast as a Go map for the lookups and inserts of Encoder.Put, and, once
// grown, reset without freeing, so a warm Encoder allocates nothing.
type hashTable[K uint32 | uint64] struct {
	keys []K
	ixs  []int32 // index + 1; 0 marks an empty slot
	n    int
	bits uint
}

func (t *hashTable[K]) reset() {
	clear(t.ixs)
	t.n = 0
}

func (t *hashTable[K]) slot(k K) int {
	return int((uint64(k) * 0x9E3779B97F4A7C15) >> (64 - t.bits))
}

// find returns the index stored for k, or the slot where k would go and
// false.
func (t *hashTable[K]) find(k K) (int32, int, bool) {
	if t.ixs == nil {
		t.grow()
	}
	mask := len(t.ixs) - 1
	for s := t.slot(k); ; s = (s + 1) & mask {
		ix := t.ixs[s]
		if ix == 0 {
			return 0, s, false
		}
		if t.keys[s] == k {
			return ix - 1, s, true
		}
	}
}

// insert stores ix for k at slot s, which find returned for k, growing the
// table past half full.
func (t *hashTable[K]) insert(s int, k K, ix int32) {
	t.keys[s], t.ixs[s] = k, ix+1
	if t.n++; 2*t.n > len(t.ixs) {
		t.grow()
	}
}

func (t *hashTable[K]) grow() {
	oldKeys, oldIxs := t.keys, t.ixs
	if t.bits == 0 {
		t.bits = 10
	} else {
		t.bits++
	}
	t.keys, t.ixs = make([]K, 1<<t.bits), make([]int32, 1<<t.bits)
	mask := len(t.ixs) - 1
	for i, ix := range oldIxs {
		if ix == 0 {
			continue
		}
		s := t.slot(oldKeys[i])
		for t.ixs[s] != 0 {
			s = (s + 1) & mask
		}
		t.keys[s], t.ixs[s] = oldKeys[i], ix
	}
}
