package column

// Dictionary returns the dictionary of the current chunk, or nil before its
// dictionary page has been read (or when it has none). It is owned by the
// Reader and changes when the Reader moves to another chunk.
func (r *Reader) Dictionary() *Values {
	if !r.hasDict {
		return nil
	}
	return &r.dict
}

// NumValues returns the number of non-null values in p: the length of
// Values, or of Indices for a page under [KeepDictionary], or of the values
// [Reader.ReadPageDeferred] left encoded.
func (p *Page) NumValues() int {
	if p.Dictionary != nil {
		return len(p.Indices)
	}
	if p.rawN > 0 {
		return p.rawN
	}
	return p.Values.Len()
}
