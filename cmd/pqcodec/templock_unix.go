//go:build unix

package main

import (
	"errors"
	"os"
	"syscall"
)

// lockTemp takes an exclusive advisory lock (flock) on f, a temporary file
// of a rewrite in progress, without waiting. The lock lives as long as the
// open file: the kernel releases it when the process exits, also on kill
// -9, which is how [removeStale] tells the files of a dead rewrite from
// those of a running one. It returns errLocked when another open file of
// the same file holds the lock.
func lockTemp(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return errLocked
	}
	return err
}

// canTellStale reports whether lockTemp locks, so that an unlocked temporary
// file belongs to no running rewrite.
const canTellStale = true
