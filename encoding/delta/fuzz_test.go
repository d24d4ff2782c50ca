package delta

import (
	"encoding/binary"
	"errors"
	"testing"
)

// fuzzMaxValues bounds the value count a fuzzed page may declare: shared
// prefixes and zero-width miniblocks let a tiny page legitimately decode to
// very many values or bytes, which is not what the fuzzers look for.
const fuzzMaxValues = 1 << 14

func declared(src []byte) int {
	h, _, err := parseHeader(src)
	if err != nil {
		return 0
	}
	return h.total
}

func seeds(f *testing.F) {
	f.Add(EncodeInt64(nil, []int64{1, -5, 1 << 62, -1 << 63, 7}))
	f.Add(EncodeInt32(nil, []int32{3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 9}))
	v, o := flat([]string{"axis", "axle", "babble", "babyhood", ""})
	dlba, _ := EncodeLengthByteArray(nil, v, o)
	dba, _ := EncodeByteArray(nil, v, o)
	f.Add(dlba)
	f.Add(dba)
	f.Add([]byte{0x80, 0x01, 0x04, 0x08, 0x0e, 0x03, 2, 0, 0, 0, 0xc0, 0x3f})
	f.Add([]byte{})
	f.Add(encodeWide([]int32{-1 << 31, 1<<31 - 1, -1 << 31, 5, 1<<31 - 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, -7}, 128, 4, 0))
}

func checkErr(t *testing.T, err error) {
	if err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrTooLarge) {
		t.Fatalf("error %v wraps no sentinel", err)
	}
}

func FuzzDecodeInt32(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		if declared(src) > fuzzMaxValues {
			return
		}
		got, err := DecodeInt32(nil, src)
		checkErr(t, err)
		// INT32 and INT64 accept the same streams, and the INT32 values are
		// the low 32 bits of the INT64 ones (widths 33 to 64 included).
		got64, err64 := DecodeInt64(nil, src)
		if (err == nil) != (err64 == nil) {
			t.Fatalf("int32 error %v, int64 error %v", err, err64)
		}
		for i := range got64 {
			if int32(got64[i]) != got[i] {
				t.Fatalf("value %d: int32 %d, int64 %d", i, got[i], got64[i])
			}
		}
		if err == nil {
			// The batch decoder agrees with the whole-page one.
			var d Decoder[int32]
			d.Reset(src)
			buf := make([]int32, 7)
			for i := 0; ; {
				n, err := d.Decode(buf)
				if err != nil || n == 0 {
					if err != nil || i != len(got) {
						t.Fatalf("batch: %v after %d of %d", err, i, len(got))
					}
					break
				}
				for j := range n {
					if buf[j] != got[i+j] {
						t.Fatalf("batch value %d differs", i+j)
					}
				}
				i += n
			}
			// Re-encoding gives the same values.
			again, err := DecodeInt32(nil, EncodeInt32(nil, got))
			if err != nil || len(again) != len(got) {
				t.Fatalf("re-encode: %v", err)
			}
			for i := range got {
				if got[i] != again[i] {
					t.Fatalf("re-encode value %d", i)
				}
			}
		}
	})
}

func FuzzDecodeInt64(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		if declared(src) > fuzzMaxValues {
			return
		}
		got, err := DecodeInt64(make([]int64, 0, 3), src)
		checkErr(t, err)
		var d Decoder[int64]
		d.Reset(src)
		err2 := d.skip()
		if (err == nil) != (err2 == nil) {
			t.Fatalf("decode error %v but skip error %v", err, err2)
		}
		if err == nil && len(got) != declared(src) {
			t.Fatalf("%d values, %d declared", len(got), declared(src))
		}
	})
}

func FuzzDecodeLengthByteArray(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		if declared(src) > fuzzMaxValues {
			return
		}
		v, o, err := DecodeLengthByteArray(nil, nil, src)
		checkErr(t, err)
		if err == nil {
			enc, err := EncodeLengthByteArray(nil, v, o)
			if err != nil {
				t.Fatal(err)
			}
			v2, o2, err := DecodeLengthByteArray(nil, nil, enc)
			if err != nil || string(v2) != string(v) || len(o2) != len(o) {
				t.Fatalf("round trip: %v", err)
			}
		}
	})
}

func FuzzDecodeByteArray(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		if declared(src) > fuzzMaxValues {
			return
		}
		v, o, err := DecodeByteArray(nil, nil, src)
		checkErr(t, err)
		if err == nil {
			enc, err := EncodeByteArray(nil, v, o)
			if err != nil {
				t.Fatal(err)
			}
			v2, o2, err := DecodeByteArray(nil, nil, enc)
			if err != nil || string(v2) != string(v) || len(o2) != len(o) {
				t.Fatalf("round trip: %v", err)
			}
			for i := range o {
				if o[i] != o2[i] {
					t.Fatalf("offset %d", i)
				}
			}
		}
		for _, size := range []int{0, 1, 3, 16} {
			_, err := DecodeFixedLenByteArray(nil, src, size)
			checkErr(t, err)
		}
	})
}

// FuzzRoundTripInt64 encodes arbitrary values read from the fuzz input.
func FuzzRoundTripInt64(f *testing.F) {
	f.Add([]byte{}, uint8(0))
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0x80, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}, uint8(5))
	f.Fuzz(func(t *testing.T, data []byte, repeat uint8) {
		var v []int64
		for range int(repeat%8) + 1 {
			for i := 0; i+8 <= len(data); i += 8 {
				v = append(v, int64(binary.LittleEndian.Uint64(data[i:])))
			}
		}
		got, err := DecodeInt64(nil, EncodeInt64(nil, v))
		if err != nil || len(got) != len(v) {
			t.Fatalf("%v: %d of %d values", err, len(got), len(v))
		}
		for i := range v {
			if v[i] != got[i] {
				t.Fatalf("value %d: %d != %d", i, got[i], v[i])
			}
		}
		v32 := make([]int32, len(v))
		for i, x := range v {
			v32[i] = int32(x)
		}
		got32, err := DecodeInt32(nil, EncodeInt32(nil, v32))
		if err != nil || len(got32) != len(v32) {
			t.Fatalf("%v", err)
		}
		for i := range v32 {
			if v32[i] != got32[i] {
				t.Fatalf("int32 value %d", i)
			}
		}
	})
}

// FuzzRoundTripByteArray splits the fuzz input into values at the positions
// given by cuts and round-trips them through both byte array encodings.
func FuzzRoundTripByteArray(f *testing.F) {
	f.Add([]byte("axisaxlebabblebabyhood"), []byte{4, 8, 14})
	f.Add([]byte{}, []byte{0, 0, 0})
	f.Fuzz(func(t *testing.T, data, cuts []byte) {
		offsets := []int32{0}
		pos := 0
		for _, c := range cuts {
			pos = min(pos+int(c), len(data))
			offsets = append(offsets, int32(pos))
		}
		offsets = append(offsets, int32(len(data)))
		for _, codec := range []struct {
			enc func([]byte, []byte, []int32) ([]byte, error)
			dec func([]byte, []int32, []byte) ([]byte, []int32, error)
		}{{EncodeLengthByteArray, DecodeLengthByteArray}, {EncodeByteArray, DecodeByteArray}} {
			enc, err := codec.enc(nil, data, offsets)
			if err != nil {
				t.Fatal(err)
			}
			v, o, err := codec.dec(nil, nil, enc)
			if err != nil || string(v) != string(data) || len(o) != len(offsets) {
				t.Fatalf("round trip: %v", err)
			}
			for i := range o {
				if o[i] != offsets[i] {
					t.Fatalf("offset %d: %d != %d", i, o[i], offsets[i])
				}
			}
		}
		if len(cuts) > 0 && cuts[0] > 0 {
			size := int(cuts[0])
			fl := data[:len(data)/size*size]
			enc, err := EncodeFixedLenByteArray(nil, fl, size)
			if err != nil {
				t.Fatal(err)
			}
			got, err := DecodeFixedLenByteArray(nil, enc, size)
			if err != nil || string(got) != string(fl) {
				t.Fatalf("fixed round trip: %v", err)
			}
		}
	})
}
