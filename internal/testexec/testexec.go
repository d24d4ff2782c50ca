// Package testexec lets a test start its own test binary in a subprocess
// (to run under ulimit, or to receive a signal), and skips the test where
// that binary cannot be started directly: `make cross` runs the linux/arm64
// test binaries under qemu-user, whose child processes the kernel cannot
// execute without binfmt_misc.
package testexec

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
	"testing"
)

// Executable returns the path of the running test binary, after checking
// that it can be executed; it skips t when the kernel refuses the binary's
// format (ENOEXEC) and fails t when the path is unknown.
func Executable(t testing.TB) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatalf("testexec: %v", err)
	}
	// -test.run=^$ runs no test: the probe only proves the binary starts.
	err = exec.Command(exe, "-test.run=^$").Run()
	var pe *os.PathError
	if errors.Is(err, syscall.ENOEXEC) || errors.As(err, &pe) && errors.Is(pe.Err, syscall.ENOEXEC) {
		t.Skipf("testexec: %s cannot be executed here (another architecture under emulation): %v", exe, err)
	}
	return exe
}
