package codecfactory

import (
	"runtime"
	"sync"
)

// idleList is a bounded stack of idle contexts of one kind, shared by all
// goroutines using a Factory. Unlike a sync.Pool it keeps its contexts across
// garbage collections (and under the race detector, which makes sync.Pool
// drop items at random), so a warm Factory never re-creates a native
// context. A context returned when the list is full, or after Close, is
// closed at once, freeing its native memory.
type idleList[T any] struct {
	mu     sync.Mutex
	items  []T // len <= cap, fixed at init
	closed bool
}

// idleCapacity is how many idle contexts of each kind a Factory keeps: more
// than the goroutines that can run at once, so a steady load never closes
// and re-creates contexts.
func idleCapacity() int { return max(4, 2*runtime.GOMAXPROCS(0)) }

func (l *idleList[T]) init(capacity int) { l.items = make([]T, 0, capacity) }

// get takes an idle context, reporting false when there is none.
func (l *idleList[T]) get() (v T, ok bool) {
	l.mu.Lock()
	if n := len(l.items); n > 0 {
		v, ok = l.items[n-1], true
		var zero T
		l.items[n-1] = zero
		l.items = l.items[:n-1]
	}
	l.mu.Unlock()
	return v, ok
}

// put returns a context taken by get or newly created; the caller must not
// use it afterwards.
func (l *idleList[T]) put(v T) {
	l.mu.Lock()
	if !l.closed && len(l.items) < cap(l.items) {
		l.items = append(l.items, v)
		l.mu.Unlock()
		return
	}
	l.mu.Unlock()
	closeContext(v)
}

// close closes every idle context and makes later puts close theirs.
func (l *idleList[T]) close() {
	l.mu.Lock()
	items := l.items
	l.items = l.items[:0:0]
	l.closed = true
	l.mu.Unlock()
	for i := range items {
		closeContext(items[i])
	}
}

// closeContext frees the native memory of a context that holds some.
func closeContext(v any) {
	if c, ok := v.(interface{ Close() error }); ok {
		_ = c.Close()
	}
}
