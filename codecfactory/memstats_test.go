package codecfactory

import (
	"runtime"
	"testing"
)

// testingMemStats measures the bytes a function allocates.
type testingMemStats struct{ before, after runtime.MemStats }

// check fails t if fn allocates more than limit bytes.
func (m *testingMemStats) check(t *testing.T, fn func(), limit uint64) {
	t.Helper()
	runtime.ReadMemStats(&m.before)
	fn()
	runtime.ReadMemStats(&m.after)
	if got := m.after.TotalAlloc - m.before.TotalAlloc; got > limit {
		t.Fatalf("allocated %d bytes, limit %d", got, limit)
	}
}
