package delta

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pqcodec/pqcodec/internal/benchdata"
)

// flat packs strs into flat values and n+1 offsets (internal/benchdata's,
// shared with interop).
var flat = benchdata.Flat

func stringSets(r *rand.Rand) map[string][]string {
	sets := map[string][]string{
		"empty page":    {},
		"one empty":     {""},
		"empty strings": {"", "", "", "a", "", ""},
		"64KiB":         {strings.Repeat("x", 64<<10), strings.Repeat("x", 64<<10) + "y", "z"},
		"spec example":  {"axis", "axle", "babble", "babyhood"},
	}
	var uuids, lowCard, prefixes, sorted []string
	for i := range 1000 {
		uuids = append(uuids, fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", r.Uint32(), r.Uint32()&0xffff, r.Uint32()&0xffff, r.Uint32()&0xffff, r.Uint64()&0xffffffffffff))
		lowCard = append(lowCard, []string{"red", "green", "blue", ""}[r.IntN(4)])
		prefixes = append(prefixes, strings.Repeat("shared/prefix/", 50)+fmt.Sprint(i/3))
		sorted = append(sorted, fmt.Sprintf("key%06d", i*7))
	}
	sets["uuids"], sets["low cardinality"], sets["long prefixes"], sets["sorted"] = uuids, lowCard, prefixes, sorted
	for _, n := range counts {
		sets[fmt.Sprint("first ", n)] = sorted[:min(n, len(sorted))]
	}
	return sets
}

func TestRoundTripLengthByteArray(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for name, strs := range stringSets(r) {
		values, offsets := flat(strs)
		enc, err := EncodeLengthByteArray(nil, values, offsets)
		require.NoError(t, err, name)
		gotV, gotO, err := DecodeLengthByteArray(nil, nil, enc)
		require.NoError(t, err, name)
		require.Equal(t, values, append([]byte{}, gotV...), name)
		require.Equal(t, offsets, gotO, name)
		// Appending a second page continues the offsets.
		gotV, gotO, err = DecodeLengthByteArray(gotV, gotO, enc)
		require.NoError(t, err, name)
		v2, o2 := flat(append(append([]string{}, strs...), strs...))
		require.Equal(t, v2, append([]byte{}, gotV...), name)
		require.Equal(t, o2, gotO, name)
	}
}

func TestRoundTripByteArray(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for name, strs := range stringSets(r) {
		values, offsets := flat(strs)
		enc, err := EncodeByteArray(nil, values, offsets)
		require.NoError(t, err, name)
		gotV, gotO, err := DecodeByteArray([]byte("pre"), nil, enc)
		require.NoError(t, err, name)
		require.Equal(t, "pre", string(gotV[:3]))
		for i, s := range strs {
			require.Equal(t, s, string(gotV[gotO[i]:gotO[i+1]]), name)
		}
		require.Len(t, gotO, len(strs)+1)
	}
}

// TestSpecExampleByteArray checks the prefix and suffix lengths of the spec's
// example: axis, axle, babble, babyhood.
func TestSpecExampleByteArray(t *testing.T) {
	values, offsets := flat([]string{"axis", "axle", "babble", "babyhood"})
	enc, err := EncodeByteArray(nil, values, offsets)
	require.NoError(t, err)
	prefixes, err := DecodeInt32(nil, enc)
	require.NoError(t, err)
	require.Equal(t, []int32{0, 2, 0, 3}, prefixes)
	var d Decoder[int32]
	require.NoError(t, d.Reset(enc))
	require.NoError(t, d.skip())
	suffixes, suffixEnd, err := decodeAll([]int32(nil), enc[d.End():])
	require.NoError(t, err)
	require.Equal(t, []int32{4, 2, 6, 5}, suffixes)
	require.Equal(t, "axislebabbleyhood", string(enc[d.End()+suffixEnd:]))
}

func TestFixedLenByteArray(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, size := range []int{1, 4, 16} {
		for _, n := range counts {
			src := make([]byte, n*size)
			for i := range src {
				src[i] = byte(r.IntN(3)) // many shared prefixes
			}
			enc, err := EncodeFixedLenByteArray(nil, src, size)
			require.NoError(t, err)
			got, err := DecodeFixedLenByteArray(nil, enc, size)
			require.NoError(t, err)
			require.Equal(t, src, append([]byte{}, got...))
			if n > 0 {
				_, err = DecodeFixedLenByteArray(nil, enc, size+1)
				require.ErrorIs(t, err, ErrCorrupt)
			}
		}
	}
	_, err := EncodeFixedLenByteArray(nil, make([]byte, 5), 2)
	require.ErrorIs(t, err, ErrInvalidArgument)
	_, err = DecodeFixedLenByteArray(nil, nil, -1)
	require.ErrorIs(t, err, ErrInvalidArgument)
}

func TestEncodeBadOffsets(t *testing.T) {
	for _, offsets := range [][]int32{{-1, 0}, {0, 3, 2}, {0, 10}} {
		_, err := EncodeLengthByteArray(nil, []byte("abc"), offsets)
		require.ErrorIs(t, err, ErrInvalidArgument)
		_, err = EncodeByteArray(nil, []byte("abc"), offsets)
		require.ErrorIs(t, err, ErrInvalidArgument)
	}
}

func lengths(v ...int32) []byte {
	return EncodeInt32(nil, v)
}

func TestByteArrayErrors(t *testing.T) {
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	for name, p := range map[string][]byte{
		"empty":                 nil,
		"first prefix not 0":    cat(lengths(1, 0), lengths(2, 2), []byte("abcd")),
		"prefix past previous":  cat(lengths(0, 3), lengths(2, 1), []byte("abc")),
		"negative prefix":       cat(lengths(0, -1), lengths(2, 1), []byte("abc")),
		"negative suffix":       cat(lengths(0, 0), lengths(2, -1), []byte("abc")),
		"suffix past data":      cat(lengths(0, 1), lengths(2, 2), []byte("abc")),
		"count mismatch":        cat(lengths(0, 1), lengths(2, 2, 1), []byte("abcde")),
		"no suffix lengths":     lengths(0, 1),
		"truncated suffix lens": cat(lengths(0, 1), lengths(2, 2, 2, 2, 2)[:5]),
	} {
		v, o, err := DecodeByteArray([]byte("x"), []int32{0, 1}, p)
		require.ErrorIs(t, err, ErrCorrupt, name)
		require.Equal(t, []byte("x"), v, name)
		require.Equal(t, []int32{0, 1}, o, name)
	}
	for name, p := range map[string][]byte{
		"empty":            nil,
		"negative length":  append(lengths(1, -1), "ab"...),
		"length past data": append(lengths(1, 5), "abc"...),
		"huge lengths":     append(lengths(1<<30, 1<<30, 1<<30), "abc"...),
		"truncated":        lengths(1, 2, 3, 4, 5)[:5],
	} {
		v, o, err := DecodeLengthByteArray([]byte("x"), nil, p)
		require.ErrorIs(t, err, ErrCorrupt, name)
		require.Equal(t, []byte("x"), v, name)
		require.Empty(t, o, name)
	}
}

func TestByteArrayTruncation(t *testing.T) {
	values, offsets := flat([]string{"hello", "help", "helium", "", "zebra", "zebras"})
	dlba, err := EncodeLengthByteArray(nil, values, offsets)
	require.NoError(t, err)
	dba, err := EncodeByteArray(nil, values, offsets)
	require.NoError(t, err)
	// Every cut loses at least the last value's byte.
	for cut := range len(dlba) {
		_, _, err := DecodeLengthByteArray(nil, nil, dlba[:cut])
		require.ErrorIs(t, err, ErrCorrupt, cut)
	}
	for cut := range len(dba) {
		_, _, err := DecodeByteArray(nil, nil, dba[:cut])
		require.ErrorIs(t, err, ErrCorrupt, cut)
	}
}

func TestByteArrayDecodeAllocs(t *testing.T) {
	strs := stringSets(rand.New(rand.NewPCG(1, 1)))["uuids"]
	values, offsets := flat(strs)
	dlba, err := EncodeLengthByteArray(nil, values, offsets)
	require.NoError(t, err)
	dba, err := EncodeByteArray(nil, values, offsets)
	require.NoError(t, err)
	v := make([]byte, 0, len(values))
	o := make([]int32, 0, len(offsets))
	require.Zero(t, testing.AllocsPerRun(20, func() {
		v, o, err = DecodeLengthByteArray(v[:0], o[:0], dlba)
		if err != nil {
			t.Fatal(err)
		}
	}))
	require.Zero(t, testing.AllocsPerRun(20, func() {
		v, o, err = DecodeByteArray(v[:0], o[:0], dba)
		if err != nil {
			t.Fatal(err)
		}
	}))
	require.Equal(t, values, v)
}

// TestPrefixAmplification decodes a page whose values share a long prefix
// repeated many times; the output is large but bounded by count times the
// longest value.
func TestPrefixAmplification(t *testing.T) {
	n := 1000
	pre := make([]int32, n)
	suf := make([]int32, n)
	for i := range pre {
		pre[i] = 4096
	}
	pre[0], suf[0] = 0, 4096
	p := append(append(EncodeInt32(nil, pre), EncodeInt32(nil, suf)...), bytes.Repeat([]byte{'q'}, 4096)...)
	v, o, err := DecodeByteArray(nil, nil, p)
	require.NoError(t, err)
	require.Len(t, o, n+1)
	require.Len(t, v, n*4096)
}

// TestCopyChunkPaths checks the assembly copying loop (where there is one)
// against the Go one on random chunks, including long prefixes and values
// that end exactly at the end of the data.
func TestCopyChunkPaths(t *testing.T) { checkCopyChunkPaths(t) }

func checkCopyChunkPaths(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	for range 300 {
		n := 1 + r.IntN(128)
		pre := make([]int32, n)
		suf := make([]int32, n)
		prevLen, total := 0, 0
		for j := range n {
			switch {
			case prevLen == 0:
			case r.IntN(4) == 0:
				pre[j] = int32(r.IntN(min(prevLen, 17) + 1)) // the register path
			case r.IntN(2) == 0:
				pre[j] = int32(r.IntN(prevLen + 1))
			}
			suf[j] = int32([]int{0, 1, 7, 15, 16, 17, 33, 79, 80, 100, 144, 1000}[r.IntN(12)])
			prevLen = int(pre[j] + suf[j])
			total += int(suf[j])
		}
		data := make([]byte, total+r.IntN(40))
		for i := range data {
			data[i] = byte(r.Uint32())
		}
		var a, b copyState
		va := make([]byte, 0, total*4+200*128+spare)
		vb := make([]byte, 0, cap(va))
		va, oa := a.copyChunk(va, make([]int32, 0, n), data, pre, suf, true)
		vb, ob := b.copyChunkFast(vb, make([]int32, 0, n), data, pre, suf, true, total)
		require.Equal(t, va, vb)
		require.Equal(t, oa, ob)
		// Register bytes past the previous value's length are garbage.
		for _, st := range []*copyState{&a, &b} {
			l := min(st.prevLen, 16)
			st.prevLo &= 1<<(8*min(l, 8)) - 1
			if l <= 8 {
				st.prevHi = 0
			} else {
				st.prevHi &= 1<<(8*(l-8)) - 1
			}
		}
		require.Equal(t, a, b)
	}
}

// TestErrorIndexInLaterPiece checks that the decoders, which decode lengths a
// piece at a time, name the right value when a bad length is past the first
// piece.
func TestErrorIndexInLaterPiece(t *testing.T) {
	const n, bad = 5000, 4321
	ls := make([]int32, n)
	for i := range ls {
		ls[i] = int32(i % 3)
	}
	ls[bad] = -2
	_, _, err := DecodeLengthByteArray(nil, nil, append(lengths(ls...), make([]byte, 2*n)...))
	require.ErrorIs(t, err, ErrCorrupt)
	require.ErrorContains(t, err, fmt.Sprintf("negative length -2 of value %d", bad))
	_, _, err = DecodeByteArray(nil, nil, bytes.Join([][]byte{lengths(make([]int32, n)...), lengths(ls...), make([]byte, 2*n)}, nil))
	require.ErrorIs(t, err, ErrCorrupt)
	require.ErrorContains(t, err, fmt.Sprintf("negative suffix length -2 of value %d", bad))
	pre := make([]int32, n)
	pre[bad] = 5 // past the previous value's length, at most 2
	_, _, err = DecodeByteArray(nil, nil, bytes.Join([][]byte{lengths(pre...), lengths(make([]int32, n)...)}, nil))
	require.ErrorIs(t, err, ErrCorrupt)
	require.ErrorContains(t, err, fmt.Sprintf("prefix length 5 of value %d exceeds previous length 0", bad))
}
