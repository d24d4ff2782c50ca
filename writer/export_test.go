package writer

import "sync"

// DrainRecyclePools empties the pool of recycle.go, so the next Writer
// starts from freshly allocated buffers.
func DrainRecyclePools() { recyclePool = sync.Pool{} }
