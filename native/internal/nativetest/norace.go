//go:build !race

package nativetest

// RaceEnabled reports whether the race detector is on.
const RaceEnabled = false
