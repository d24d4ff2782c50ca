package cbuf

import (
	"errors"
	"testing"
	"unsafe"

	"github.com/pqcodec/pqcodec/internal/errs"
)

func TestSpareAndIn(t *testing.T) {
	var scratch [1]byte
	buf := make([]byte, 3, 8)
	p, n := Spare(buf, &scratch)
	if n != 5 || p != unsafe.Pointer(&buf[:8][3]) {
		t.Fatalf("Spare = %p, %d; want &buf[3], 5", p, n)
	}
	if p, n := Spare(buf[:8], &scratch); n != 0 || p != unsafe.Pointer(&scratch) {
		t.Fatalf("Spare of a full slice = %p, %d; want scratch, 0", p, n)
	}
	if p, n := Spare(nil, &scratch); n != 0 || p != unsafe.Pointer(&scratch) {
		t.Fatalf("Spare(nil) = %p, %d; want scratch, 0", p, n)
	}
	if p := In(buf, &scratch); p != unsafe.Pointer(&buf[0]) {
		t.Fatalf("In = %p, want &buf[0]", p)
	}
	if p := In(nil, &scratch); p != unsafe.Pointer(&scratch) {
		t.Fatalf("In(nil) = %p, want scratch", p)
	}
	g := Grow(buf, 5)
	if &g[0] != &buf[0] {
		t.Fatal("Grow reallocated a slice with room")
	}
	g = Grow(buf, 6)
	if cap(g)-len(g) < 6 || &g[0] == &buf[0] || string(g) != string(buf) {
		t.Fatal("Grow did not copy into a larger array")
	}
}

func TestHandleClose(t *testing.T) {
	type owner struct{ h Handle[*int] }
	freed := 0
	o := &owner{}
	x := new(int)
	Own(o, &o.h, x, func(*int) { freed++ })
	if o.h.Get() != x {
		t.Fatal("Get does not return the owned pointer")
	}
	o.h.Close()
	o.h.Close()
	if freed != 1 || o.h.Get() != nil {
		t.Fatalf("freed %d times, Get = %v after Close; want once, nil", freed, o.h.Get())
	}
	var zero Handle[*int]
	zero.Close() // owns nothing: no call
}

func TestErrors(t *testing.T) {
	corrupt, dstTooSmall, closed, internal := Errors("pkg")
	for _, c := range []struct {
		err     error
		text    string
		corrupt bool
	}{
		{corrupt, "pkg: corrupt input", true},
		{dstTooSmall, "pkg: destination too small", false},
		{closed, "pkg: use after Close", false},
		{internal, "pkg: library error", false},
	} {
		if c.err.Error() != c.text {
			t.Errorf("%q, want %q", c.err.Error(), c.text)
		}
		if errors.Is(c.err, errs.ErrCorrupt) != c.corrupt {
			t.Errorf("%q: errors.Is(err, ErrCorrupt) = %v, want %v", c.text, !c.corrupt, c.corrupt)
		}
	}
	if again, _, _, _ := Errors("pkg"); errors.Is(again, corrupt) {
		t.Error("two calls returned the same corrupt sentinel")
	}
}

func TestCheckInput(t *testing.T) {
	closed, corrupt := errors.New("closed"), errors.New("corrupt")
	if err := CheckInput(true, nil, closed, corrupt); err != closed {
		t.Errorf("closed: %v, want the closed error", err)
	}
	if err := CheckInput(false, nil, closed, corrupt); !errors.Is(err, corrupt) || err.Error() != "corrupt: empty input" {
		t.Errorf("empty src: %v, want corrupt: empty input", err)
	}
	if err := CheckInput(false, []byte{0}, closed, corrupt); err != nil {
		t.Errorf("open, non-empty src: %v", err)
	}
}
