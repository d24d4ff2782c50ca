// Package bloom implements the split-block bloom filters of Parquet
// (https://github.com/apache/parquet-format/blob/master/BloomFilter.md):
// a bitset of 256-bit blocks, each of eight 32-bit words; a value's 64-bit
// xxHash picks one block with its upper 32 bits and sets or tests one bit
// in each of the block's words with its lower 32 bits. Readers use a
// column chunk's filter to skip row groups that cannot hold a value;
// writers insert the hash of every value.
//
// Values are hashed as the specification says, by xxHash64 (seed 0) of
// their PLAIN encoding, without the length prefix of a BYTE_ARRAY: see
// [HashInt32], [HashInt64], [HashFloat32], [HashFloat64], [HashBytes] and
// [HashInt96]. BOOLEAN columns have no bloom filters.
//
// A filter is stored in the file as a thrift BloomFilterHeader followed by
// its bitset ([Filter.MarshalTo], [Unmarshal]).
package bloom

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"

	"github.com/cespare/xxhash/v2"

	"github.com/pqcodec/pqcodec/format"
	"github.com/pqcodec/pqcodec/internal/errs"
)

var (
	// ErrCorrupt is wrapped by errors for filter bytes that do not form a
	// filter. It matches pqcodec.ErrCorrupt.
	ErrCorrupt = errs.Corrupt("bloom: corrupt filter")
	// ErrUnsupported is wrapped by errors for a filter of an algorithm,
	// hash or compression the specification does not define.
	ErrUnsupported = errors.New("bloom: unsupported filter")
)

const (
	// BlockBytes is the size of a block: eight 32-bit words.
	BlockBytes = 32
	// MinBytes and MaxBytes bound the bitset sizes [New] and [NewForNDV]
	// make (parquet-java and arrow-cpp use the same bounds). [Unmarshal]
	// accepts any whole number of blocks the bytes hold.
	MinBytes = BlockBytes
	MaxBytes = 128 << 20
)

// salt are the eight odd constants of the specification, one per word.
var salt = [8]uint32{0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31}

type block [8]uint32

// Filter is a split-block bloom filter. The zero Filter has no blocks:
// Check is always true (nothing can be excluded), and Insert panics. It is
// not safe for concurrent Insert; concurrent Check calls are safe.
type Filter struct {
	blocks []block
}

// New returns an empty filter of numBytes bytes rounded up to a power of
// two within [MinBytes, MaxBytes].
func New(numBytes int) *Filter {
	n := MinBytes
	if numBytes > MinBytes {
		n = 1 << bits.Len(uint(numBytes-1))
	}
	n = min(n, MaxBytes)
	return &Filter{blocks: make([]block, n/BlockBytes)}
}

// NumBytesFor returns the bitset size in bytes for ndv distinct values at
// false-positive probability fpp (0 < fpp < 1): 8 bits per value over
// -ln(1 - fpp^(1/8)), the specification's estimate, rounded up to a power
// of two within [MinBytes, MaxBytes].
func NumBytesFor(ndv int64, fpp float64) int {
	if ndv <= 0 || !(fpp > 0 && fpp < 1) {
		return MinBytes
	}
	bitsNeeded := -8 * float64(ndv) / math.Log(1-math.Pow(fpp, 1.0/8))
	if bitsNeeded/8 >= MaxBytes {
		return MaxBytes
	}
	n := int(math.Ceil(bitsNeeded / 8))
	if n <= MinBytes {
		return MinBytes
	}
	return min(1<<bits.Len(uint(n-1)), MaxBytes)
}

// NewForNDV returns an empty filter sized by [NumBytesFor].
func NewForNDV(ndv int64, fpp float64) *Filter { return New(NumBytesFor(ndv, fpp)) }

// Reset clears every bit of f, keeping its size, for a filter reused
// across column chunks.
func (f *Filter) Reset() { clear(f.blocks) }

// NumBytes returns the size of f's bitset in bytes.
func (f *Filter) NumBytes() int { return len(f.blocks) * BlockBytes }

// mask returns the bit each word of a block tests for key x.
func mask(x uint32) block {
	var m block
	for i := range m {
		m[i] = 1 << ((x * salt[i]) >> 27)
	}
	return m
}

// blockOf returns the index of the block of hash h among n blocks.
func blockOf(h uint64, n int) int { return int(((h >> 32) * uint64(n)) >> 32) }

// Insert adds the value whose hash is h to f. It panics if f has no
// blocks (the zero Filter).
func (f *Filter) Insert(h uint64) {
	b := &f.blocks[blockOf(h, len(f.blocks))]
	m := mask(uint32(h))
	for i := range b {
		b[i] |= m[i]
	}
}

// Check reports whether the value whose hash is h may be in f: false means
// it is certainly not. A filter without blocks returns true.
func (f *Filter) Check(h uint64) bool {
	if len(f.blocks) == 0 {
		return true
	}
	b := &f.blocks[blockOf(h, len(f.blocks))]
	m := mask(uint32(h))
	for i := range b {
		if b[i]&m[i] == 0 {
			return false
		}
	}
	return true
}

// MarshalTo appends f as a column chunk stores it, a thrift
// BloomFilterHeader (split-block, xxHash64, uncompressed) then the bitset
// (words little-endian), to dst and returns the extended slice. dst may be
// nil.
func (f *Filter) MarshalTo(dst []byte) []byte {
	h := format.BloomFilterHeader{NumBytes: int32(f.NumBytes()), Algorithm: format.BloomBlock,
		Hash: format.BloomXxHash, Compression: format.BloomUncompressed}
	dst = format.AppendBloomFilterHeader(dst, &h)
	for i := range f.blocks {
		for _, w := range f.blocks[i] {
			dst = binary.LittleEndian.AppendUint32(dst, w)
		}
	}
	return dst
}

// Unmarshal decodes a filter as [Filter.MarshalTo] writes it at the start
// of b and returns it with the number of bytes it took; the bitset is
// copied. A header that does not decode, or a bitset that is not a whole
// number of blocks or is longer than b holds, returns an error wrapping
// [ErrCorrupt]; an algorithm, hash or compression other than the
// specification's one wraps [ErrUnsupported].
func Unmarshal(b []byte) (*Filter, int, error) {
	h, n, err := format.DecodeBloomFilterHeader(b)
	if err != nil {
		return nil, 0, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	if h.Algorithm != format.BloomBlock || h.Hash != format.BloomXxHash || h.Compression != format.BloomUncompressed {
		return nil, 0, fmt.Errorf("%w: algorithm %d, hash %d, compression %d", ErrUnsupported, h.Algorithm, h.Hash, h.Compression)
	}
	size := int(h.NumBytes)
	if size == 0 || size%BlockBytes != 0 {
		return nil, 0, fmt.Errorf("%w: bitset of %d bytes, not a whole number of %d-byte blocks", ErrCorrupt, size, BlockBytes)
	}
	if size > len(b)-n {
		return nil, 0, fmt.Errorf("%w: bitset of %d bytes, %d after the header", ErrCorrupt, size, len(b)-n)
	}
	f := &Filter{blocks: make([]block, size/BlockBytes)}
	src := b[n : n+size]
	for i := range f.blocks {
		for j := range f.blocks[i] {
			f.blocks[i][j] = binary.LittleEndian.Uint32(src[i*BlockBytes+4*j:])
		}
	}
	return f, n + size, nil
}

// Hash returns the xxHash64 (seed 0) of b, the hash of any value's PLAIN
// encoding.
func Hash(b []byte) uint64 { return xxhash.Sum64(b) }

// HashBytes returns the hash of a BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY value:
// of its bytes, without a length.
func HashBytes(b []byte) uint64 { return xxhash.Sum64(b) }

// HashInt32 returns the hash of an INT32 value (4 bytes little-endian).
func HashInt32(v int32) uint64 {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], uint32(v))
	return xxhash.Sum64(b[:])
}

// HashInt64 returns the hash of an INT64 value (8 bytes little-endian).
func HashInt64(v int64) uint64 {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(v))
	return xxhash.Sum64(b[:])
}

// HashFloat32 returns the hash of a FLOAT value (its IEEE 754 bits, 4
// bytes little-endian): -0 and +0, and NaNs of different bits, differ.
func HashFloat32(v float32) uint64 { return HashInt32(int32(math.Float32bits(v))) }

// HashFloat64 returns the hash of a DOUBLE value (its IEEE 754 bits, 8
// bytes little-endian).
func HashFloat64(v float64) uint64 { return HashInt64(int64(math.Float64bits(v))) }

// HashInt96 returns the hash of an INT96 value (its 12 bytes).
func HashInt96(v [12]byte) uint64 { return xxhash.Sum64(v[:]) }
