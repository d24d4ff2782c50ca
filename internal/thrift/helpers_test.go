package thrift

// WriteMapHeader appends a map header for n entries: Parquet's Thrift IDL
// has no maps, so only the tests write one (the reader must skip maps in
// fields from the future).
func (w *Writer) WriteMapHeader(key, value Type, n int) {
	w.WriteUvarint(uint64(n))
	if n > 0 {
		w.Buf = append(w.Buf, byte(key)<<4|byte(value))
	}
}
