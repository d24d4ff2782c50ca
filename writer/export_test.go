package writer

import "sync"

// DrainRecyclePools empties the pools of recycle.go, so the next Writer
// starts from freshly allocated buffers.
func DrainRecyclePools() {
	for i := range recyclePools {
		recyclePools[i] = sync.Pool{}
	}
}
