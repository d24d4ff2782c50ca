package bloom

import (
	"bytes"
	"testing"
)

// FuzzUnmarshal decodes arbitrary bytes as a stored filter: an error, or a
// filter that marshals back to the bytes it took when their header is in
// the form MarshalTo writes, and that Check and Insert never fail on.
func FuzzUnmarshal(f *testing.F) {
	g := New(64)
	g.Insert(HashInt64(7))
	f.Add(g.MarshalTo(nil))
	f.Add([]byte{0x15, 0x40, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		fl, n, err := Unmarshal(b)
		if err != nil {
			return
		}
		if n > len(b) || fl.NumBytes() == 0 || fl.NumBytes()%BlockBytes != 0 {
			t.Fatalf("took %d of %d bytes, %d-byte bitset", n, len(b), fl.NumBytes())
		}
		out := fl.MarshalTo(nil)
		bitset := out[len(out)-fl.NumBytes():]
		if !bytes.Equal(bitset, b[n-fl.NumBytes():n]) {
			t.Fatal("bitset differs")
		}
		for i := range int64(64) {
			h := HashInt64(i)
			fl.Insert(h)
			if !fl.Check(h) {
				t.Fatalf("inserted hash %d not found", i)
			}
		}
	})
}
