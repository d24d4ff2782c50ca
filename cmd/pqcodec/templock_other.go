//go:build !unix

package main

import "os"

// lockTemp does nothing where flock does not exist: [removeStale] then
// cannot tell the temporary files of a dead rewrite from those of a
// running one, and removes none.
func lockTemp(*os.File) error { return nil }

// canTellStale reports whether lockTemp locks.
const canTellStale = false
