package benchdata

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestDeterministic checks that every set is the same on every call (the
// string sets once depended on map order) and holds the size asked for.
func TestDeterministic(t *testing.T) {
	const size = 64 << 10
	if a, b := Strings(size), Strings(size); !reflect.DeepEqual(a, b) {
		t.Fatal("Strings differs between calls")
	}
	for name, strs := range Strings(size) {
		total := 0
		for _, s := range strs {
			total += 4 + len(s)
		}
		if total < size || total > size+4+1024 {
			t.Errorf("%s: %d PLAIN bytes, want about %d", name, total, size)
		}
	}
	if a, b := Int64s(size), Int64s(size); !reflect.DeepEqual(a, b) || len(a["random"]) != size/8 {
		t.Fatal("Int64s differs between calls or has the wrong length")
	}
	if v := Int32s(size)["small-deltas"]; len(v) != size/4 {
		t.Fatalf("Int32s: %d values, want %d", len(v), size/4)
	}
	for _, kind := range ByteArrayKinds {
		values, offsets := ByteArrays(rand.New(rand.NewPCG(1, 2)), kind, size)
		if len(values)+4*(len(offsets)-1) < size-4 || int(offsets[len(offsets)-1]) != len(values) {
			t.Errorf("%s: %d bytes in %d values", kind, len(values), len(offsets)-1)
		}
	}
	lv := Levels(rand.New(rand.NewPCG(1, 2)), 10000)
	ones := 0
	for _, l := range lv {
		if l > 1 {
			t.Fatalf("level %d", l)
		}
		ones += int(l)
	}
	if len(lv) != 10000 || ones < 5000 {
		t.Fatalf("%d levels, %d ones: want 10000, mostly ones", len(lv), ones)
	}
}
