package thrift

import "testing"

// FuzzSkip skips arbitrary bytes as each container type: it must never
// panic, never read past the input and always make progress or fail.
func FuzzSkip(f *testing.F) {
	f.Add([]byte{0x15, 0x02, 0x00})
	f.Add([]byte{0xf9, 0xff, 0xff, 0xff, 0xff, 0x07})
	f.Add([]byte{0x19, 0x19, 0x1c, 0x00})
	f.Add([]byte{0x02, 0x5b, 0x01, 0x02})
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, typ := range []Type{Struct, List, Map} {
			r := NewReader(b)
			err := r.Skip(typ)
			if r.Offset() > len(b) {
				t.Fatalf("offset %d past input of %d bytes", r.Offset(), len(b))
			}
			if err == nil && r.Offset() == 0 {
				t.Fatalf("skip of %v consumed nothing", typ)
			}
		}
	})
}
