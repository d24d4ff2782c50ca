package hadoop

import (
	"bytes"
	"errors"
	"testing"
)

// FuzzDecode decodes arbitrary framing with the stored block codec: it must
// fail with a package sentinel or fill dst exactly, never panic or write
// outside dst.
func FuzzDecode(f *testing.F) {
	f.Add(frame(11, "hello", " ", "world"), uint16(11))
	f.Add(frame(5, "hello", 6, " world"), uint16(11))
	f.Add(frame(0), uint16(0))
	f.Add([]byte{0, 0}, uint16(3))
	f.Fuzz(func(t *testing.T, src []byte, size uint16) {
		buf := bytes.Repeat([]byte{0xA5}, int(size)+16)
		err := Decode(buf[:size:size], src, stored{})
		if !bytes.Equal(buf[size:], bytes.Repeat([]byte{0xA5}, 16)) {
			t.Fatal("write past dst")
		}
		if err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrSizeMismatch) {
			t.Fatalf("unexpected error %v", err)
		}
		if err == nil {
			// Re-encoding what was decoded must decode to the same bytes.
			b, err := Encode(nil, buf[:size], 3, stored{})
			if err != nil {
				t.Fatal(err)
			}
			got := make([]byte, size)
			if err := Decode(got, b, stored{}); err != nil || !bytes.Equal(got, buf[:size]) {
				t.Fatalf("re-encode round trip: %v", err)
			}
		}
	})
}
