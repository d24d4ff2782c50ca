//go:build !purego

package rle

import (
	"testing"

	"github.com/klauspost/cpuid/v2"
)

func TestFastPDEP(t *testing.T) {
	for _, c := range []struct {
		vendor cpuid.Vendor
		family int
		want   bool
	}{
		{cpuid.Intel, 6, true},     // Haswell and every later Intel core
		{cpuid.AMD, 0x15, true},    // Excavator: no BMI2 reaches here anyway
		{cpuid.AMD, 0x17, false},   // Zen, Zen+, Zen 2: microcoded
		{cpuid.AMD, 0x19, true},    // Zen 3, Zen 4
		{cpuid.AMD, 0x1a, true},    // Zen 5
		{cpuid.Hygon, 0x18, false}, // Dhyana (Zen)
		{cpuid.VIA, 7, true},
	} {
		if got := fastPDEP(c.vendor, c.family); got != c.want {
			t.Errorf("fastPDEP(%v, %#x) = %v, want %v", c.vendor, c.family, got, c.want)
		}
	}
	t.Logf("this CPU: %v family %#x model %#x, BMI2 %v: PDEP kernels %v",
		cpuid.CPU.VendorID, cpuid.CPU.Family, cpuid.CPU.Model, cpuid.CPU.Supports(cpuid.BMI2), hasBMI2)
}
