package bytestreamsplit

import (
	"errors"
	"testing"
)

// fuzzDecode decodes src into a slice whose spare capacity holds canaries,
// checks the assembly and generic paths agree, and round-trips the result.
func fuzzDecode[T Value](t *testing.T, src []byte, canary T) {
	n := len(src) / size[T]()
	buf := make([]T, n+40)
	for i := range buf {
		buf[i] = canary
	}
	got, err := Decode(buf[:0:n], src)
	if len(src)%size[T]() != 0 {
		if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("want ErrCorrupt, got %v", err)
		}
		return
	}
	if err != nil || len(got) != n {
		t.Fatal(err)
	}
	for i := n; i < len(buf); i++ {
		if buf[i] != canary {
			t.Fatalf("wrote past the output at %d", i)
		}
	}
	if string(Encode(nil, got)) != string(src) {
		t.Fatal("round trip differs")
	}
	want := make([]T, n)
	decodeGeneric(want, src, n)
	if string(Encode(nil, want)) != string(src) {
		t.Fatal("generic decode differs")
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte{1, 5, 2, 6, 3, 7, 4, 8})
	f.Add(make([]byte, 16*8+3))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, src []byte) {
		fuzzDecode[float32](t, src, 7)
		fuzzDecode[int32](t, src, -7)
		fuzzDecode[float64](t, src, 9)
		fuzzDecode[int64](t, src, -9)
		for _, size := range []int{1, 2, 3, 12, 16} {
			got, err := DecodeFixedLenByteArray(nil, src, size)
			if len(src)%size != 0 {
				if !errors.Is(err, ErrCorrupt) {
					t.Fatalf("want ErrCorrupt, got %v", err)
				}
				continue
			}
			enc, err2 := EncodeFixedLenByteArray(nil, got, size)
			if err != nil || err2 != nil || string(enc) != string(src) {
				t.Fatalf("fixed round trip %d: %v %v", size, err, err2)
			}
		}
	})
}

// FuzzRoundTrip encodes arbitrary bytes read as values and checks the
// fast encoders against splitRef.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte("0123456789abcdef0123456789abcdef"), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, size uint8) {
		k := int(size%20) + 1
		fl := data[:len(data)/k*k]
		enc, err := EncodeFixedLenByteArray(nil, fl, k)
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodeFixedLenByteArray(nil, enc, k)
		if err != nil || string(got) != string(fl) {
			t.Fatalf("round trip: %v", err)
		}
		v := make([]int64, len(data)/8)
		for i := range v {
			for j := range 8 {
				v[i] |= int64(data[8*i+j]) << (8 * j)
			}
		}
		if got, want := EncodeInt64(nil, v), splitRef(data[:8*len(v)], 8); string(got) != string(want) {
			t.Fatal("EncodeInt64 differs from the reference")
		}
		if got, want := EncodeInt32(nil, valuesOf[int32](data)), splitRef(data[:len(data)/4*4], 4); string(got) != string(want) {
			t.Fatal("EncodeInt32 differs from the reference")
		}
		back, err := DecodeInt64(nil, EncodeInt64(nil, v))
		if err != nil || len(back) != len(v) {
			t.Fatal(err)
		}
		for i := range v {
			if back[i] != v[i] {
				t.Fatalf("value %d", i)
			}
		}
	})
}
