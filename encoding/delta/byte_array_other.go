//go:build !amd64 || purego

package delta

// copyChunkFast is copyChunk on targets without an assembly version.
func (st *copyState) copyChunkFast(values []byte, offsets []int32, data []byte, pre, suf []int32, withOffsets bool, suffixBytes int) ([]byte, []int32) {
	return st.copyChunk(values, offsets, data, pre, suf, withOffsets)
}
