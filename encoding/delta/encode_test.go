package delta

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// refEncode is a plain DELTA_BINARY_PACKED encoder written from the spec,
// value by value, that makes the encoders' choices: blocks of 128 values in
// 4 miniblocks, width 0 and no data for the miniblocks past the last value,
// zero padding. bits is the width of the physical type; arithmetic wraps at
// it.
func refEncode(v []int64, typeBits uint) []byte {
	wrap := func(x int64) int64 { // to the physical type, sign-extended
		sh := 64 - typeBits
		return x << sh >> sh
	}
	var out []byte
	out = binary.AppendUvarint(out, 128)
	out = binary.AppendUvarint(out, 4)
	out = binary.AppendUvarint(out, uint64(len(v)))
	first := int64(0)
	if len(v) > 0 {
		first = v[0]
	}
	out = binary.AppendVarint(out, first)
	for i := 1; i < len(v); i += 128 {
		var deltas []int64
		for j := i; j < min(i+128, len(v)); j++ {
			deltas = append(deltas, wrap(v[j]-v[j-1]))
		}
		minDelta := deltas[0]
		for _, d := range deltas {
			minDelta = min(minDelta, d)
		}
		out = binary.AppendVarint(out, minDelta)
		mask := uint64(1)<<typeBits - 1 // 0 - 1 for 64 bits
		if typeBits == 64 {
			mask = ^uint64(0)
		}
		var widths [4]byte
		var bodies []byte
		for mb := range 4 {
			if mb*32 >= len(deltas) {
				continue
			}
			var packed [32]uint64
			for j := range 32 {
				if k := mb*32 + j; k < len(deltas) {
					packed[j] = uint64(deltas[k]-minDelta) & mask
				}
				widths[mb] = max(widths[mb], byte(bits.Len64(packed[j])))
			}
			w := uint(widths[mb])
			body := make([]byte, 4*w)
			for j, x := range packed {
				for b := range w {
					if x>>b&1 != 0 {
						bit := uint(j)*w + b
						body[bit/8] |= 1 << (bit % 8)
					}
				}
			}
			bodies = append(bodies, body...)
		}
		out = append(append(out, widths[:]...), bodies...)
	}
	return out
}

// TestEncodeMatchesReference checks the encoders byte for byte against
// refEncode, at every count of the round-trip tests and at counts around
// every block and miniblock boundary of two blocks.
func TestEncodeMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	ns := append([]int{}, counts...)
	for n := 250; n <= 260; n++ {
		ns = append(ns, n, n-128+31, n-128+32, n-128+33)
	}
	for _, n := range ns {
		for name, v := range int64Patterns(r, n) {
			require.Equal(t, refEncode(v, 64), EncodeInt64(nil, v), "%s n=%d", name, n)
			v32 := make([]int32, n)
			w32 := make([]int64, n)
			for i, x := range v {
				v32[i] = int32(x ^ x>>32)
				w32[i] = int64(v32[i])
			}
			require.Equal(t, refEncode(w32, 32), EncodeInt32(nil, v32), "%s n=%d", name, n)
		}
	}
}

// refByteArrays returns the reference encodings, DELTA_LENGTH_BYTE_ARRAY and
// DELTA_BYTE_ARRAY, of strs.
func refByteArrays(strs []string) (dlba, dba []byte) {
	var lens, pre, suf []int64
	var data, suffixes []byte
	prev := ""
	for _, s := range strs {
		p := 0
		for p < len(s) && p < len(prev) && s[p] == prev[p] {
			p++
		}
		lens = append(lens, int64(len(s)))
		pre = append(pre, int64(p))
		suf = append(suf, int64(len(s)-p))
		data = append(data, s...)
		suffixes = append(suffixes, s[p:]...)
		prev = s
	}
	dlba = append(refEncode(lens, 32), data...)
	dba = append(append(refEncode(pre, 32), refEncode(suf, 32)...), suffixes...)
	return dlba, dba
}

func TestByteArrayEncodeMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	sets := stringSets(r)
	// Values of every length up to 40 bytes drawn from few letters share
	// prefixes of every length, some ending within 8 bytes of the end of the
	// values.
	for _, n := range []int{1, 2, 129, 300} {
		var strs []string
		for range n {
			b := make([]byte, r.IntN(41))
			for i := range b {
				b[i] = "ab"[r.IntN(2)]
			}
			strs = append(strs, string(b))
		}
		sets[fmt.Sprint("ab ", n)] = strs
	}
	for name, strs := range sets {
		values, offsets := flat(strs)
		wantL, wantB := refByteArrays(strs)
		got, err := EncodeLengthByteArray([]byte("x"), values, offsets)
		require.NoError(t, err)
		require.Equal(t, append([]byte("x"), wantL...), got, name)
		got, err = EncodeByteArray([]byte("x"), values, offsets)
		require.NoError(t, err)
		require.Equal(t, append([]byte("x"), wantB...), got, name)
		// Offsets need not start at 0.
		if len(offsets) > 2 {
			got, err = EncodeByteArray(nil, values, offsets[1:])
			require.NoError(t, err)
			_, want := refByteArrays(strs[1:])
			require.Equal(t, want, got, name)
		}
	}
	for _, size := range []int{1, 3, 8, 9, 16} {
		var strs []string
		var src []byte
		for range 300 {
			b := make([]byte, size)
			for i := range b {
				b[i] = "ab"[r.IntN(2)]
			}
			strs = append(strs, string(b))
			src = append(src, b...)
		}
		_, want := refByteArrays(strs)
		got, err := EncodeFixedLenByteArray(nil, src, size)
		require.NoError(t, err)
		require.Equal(t, want, got, "size %d", size)
	}
}

// TestEncodeAllocs checks that no encoder allocates once dst has capacity.
func TestEncodeAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 26))
	v := int64Patterns(r, 1000)["ascending"]
	v32 := make([]int32, len(v))
	for i, x := range v {
		v32[i] = int32(x)
	}
	strs := stringSets(r)["uuids"]
	values, offsets := flat(strs)
	dst := make([]byte, 0, 4*len(values)+16*len(v))
	var err error
	for name, f := range map[string]func(){
		"int32": func() { dst = EncodeInt32(dst[:0], v32) },
		"int64": func() { dst = EncodeInt64(dst[:0], v) },
		"DLBA":  func() { dst, err = EncodeLengthByteArray(dst[:0], values, offsets) },
		"DBA":   func() { dst, err = EncodeByteArray(dst[:0], values, offsets) },
		"FLBA":  func() { dst, err = EncodeFixedLenByteArray(dst[:0], values[:36*100], 36) },
	} {
		require.Zero(t, testing.AllocsPerRun(20, f), name)
		require.NoError(t, err, name)
	}
}

// FuzzEncodeReference checks the encoders byte for byte against the
// reference ones on values cut from the fuzz input, which shares prefixes
// of every length when it repeats bytes.
func FuzzEncodeReference(f *testing.F) {
	f.Add([]byte("axisaxlebabblebabyhood"), []byte{4, 4, 6})
	f.Add([]byte("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab"), []byte{20, 21, 0, 1})
	f.Fuzz(func(t *testing.T, data, cuts []byte) {
		var strs []string
		var ints []int64
		pos := 0
		for i, c := range cuts {
			end := min(pos+int(c), len(data))
			strs = append(strs, string(data[pos:end]))
			pos = end
			ints = append(ints, int64(c)<<(8*(i%8)))
		}
		strs = append(strs, string(data[pos:]))
		values, offsets := flat(strs)
		wantL, wantB := refByteArrays(strs)
		if got, err := EncodeLengthByteArray(nil, values, offsets); err != nil || string(got) != string(wantL) {
			t.Fatalf("DELTA_LENGTH_BYTE_ARRAY: %v", err)
		}
		if got, err := EncodeByteArray(nil, values, offsets); err != nil || string(got) != string(wantB) {
			t.Fatalf("DELTA_BYTE_ARRAY: %v", err)
		}
		if string(EncodeInt64(nil, ints)) != string(refEncode(ints, 64)) {
			t.Fatal("DELTA_BINARY_PACKED")
		}
	})
}

// TestEncodeBadOffsetsLate checks offsets that go wrong past the first
// block, including a decrease that wraps around when subtracted in int32
// and one that follows an offset past the end of the values.
func TestEncodeBadOffsetsLate(t *testing.T) {
	values := make([]byte, 1000)
	good := make([]int32, 301)
	for i := range good {
		good[i] = int32(i * 3)
	}
	bad := map[string][]int32{
		"past the end then back": {0, 2000, 5},
		"wraps":                  {0, math.MaxInt32, math.MinInt32, 5},
	}
	for _, at := range []int{1, 2, 128, 129, 130, 200, 300} {
		o := slices.Clone(good)
		o[at] = o[at-1] - 1
		bad[fmt.Sprint("decrease at ", at)] = o
		o = slices.Clone(good)
		o[at] = -5
		bad[fmt.Sprint("negative at ", at)] = o
		o = slices.Clone(good)
		o[at] = math.MinInt32
		bad[fmt.Sprint("min at ", at)] = o
		if at < 300 {
			o = slices.Clone(good)
			o[at] = 5000
			bad[fmt.Sprint("past the end at ", at)] = o
		}
	}
	for name, offsets := range bad {
		dst := []byte("keep")
		got, err := EncodeLengthByteArray(dst, values, offsets)
		require.ErrorIs(t, err, ErrInvalidArgument, name)
		require.Equal(t, "keep", string(got), name)
		got, err = EncodeByteArray(dst, values, offsets)
		require.ErrorIs(t, err, ErrInvalidArgument, name)
		require.Equal(t, "keep", string(got), name)
	}
}
