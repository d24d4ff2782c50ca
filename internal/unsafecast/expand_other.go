//go:build !amd64 || purego

package unsafecast

// expandBlocks writes nothing: ExpandBitsToBytes' table loop does all.
func expandBlocks(dst, src []byte) int { return 0 }

// packBlocks packs nothing: PackBytesToBits' loop does all.
func packBlocks(dst, src []byte) int { return 0 }
