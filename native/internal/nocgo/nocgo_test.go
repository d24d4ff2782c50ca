package nocgo

import (
	"errors"
	"testing"
)

var errTest = errors.New("test: unavailable")

type testUnavailable struct{}

func (testUnavailable) Err() error { return errTest }

func TestPlaceholders(t *testing.T) {
	errOption := errors.New("test: invalid option")
	if c, err := New[Compressor[testUnavailable], testUnavailable](errOption); c != nil || err != errOption {
		t.Errorf("New with an option error = %v, %v; want nil, the option error", c, err)
	}
	c, err := New[Compressor[testUnavailable], testUnavailable](nil)
	if c != nil || err != errTest {
		t.Errorf("New = %v, %v; want nil, the binding's error", c, err)
	}
	if _, err := c.Compress(nil, []byte("x")); err != errTest {
		t.Errorf("Compress: %v, want the binding's error", err)
	}
	var d *Decompressor[testUnavailable]
	if _, err := d.Decompress(nil, []byte("x")); err != errTest {
		t.Errorf("Decompress: %v, want the binding's error", err)
	}
	if c.Close() != nil || d.Close() != nil {
		t.Error("Close returned an error")
	}
}
