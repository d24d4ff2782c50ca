// Package arenas, imported for its side effect by a command (never by a
// library: it changes the whole process), caps glibc's malloc arenas at one
// when the process runs under an address-space limit (ulimit -v).
//
// In a cgo binary every Go thread calls malloc once (pthread_getattr_np,
// when the runtime reads the thread's stack bounds), so glibc gives each
// its own arena and reserves 64 MiB of address space for it, up to 8 per
// core: a pqcodec process mapped 4 of them (256 MiB) before reading a
// byte, which under ulimit -v 1 GiB left it no room for a new thread
// ("pthread_create failed") or a larger heap (Go's fatal "out of memory").
// The cap is set from a C constructor (arenas.go, cgo on Linux), which runs
// before the Go runtime starts its threads; without an address-space limit,
// without glibc or without cgo, nothing changes.
package arenas
