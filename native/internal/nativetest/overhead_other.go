//go:build !linux

package nativetest

import "testing"

// Overhead needs per-thread CPU time, which only the Linux build reads.
func Overhead(t *testing.T, impls ...Impl) { t.Skip("overhead measurement needs Linux") }
