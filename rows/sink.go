package rows

// sink receives the parts of a row as emit walks it.
type sink interface {
	null() error
	leaf(c *cursor) error // the next value of c
	beginGroup()
	name(name string, i int) // before the i-th field of a group
	endGroup()
	emptyList(isMap bool)
	beginList(isMap bool)
	elem(i int) // before the i-th element
	endList(isMap bool)
	beginEntry() // a map entry: key, entryValue, value, endEntry
	entryValue()
	endEntry()
}

// discard consumes a row without building anything.
type discard struct{}

func (discard) null() error { return nil }

func (discard) leaf(c *cursor) error {
	if c.val >= c.nvals {
		return c.corrupt("page holds %d values, its levels need more", c.nvals)
	}
	c.val++
	return nil
}

func (discard) beginGroup() {}

func (discard) name(string, int) {}

func (discard) endGroup() {}

func (discard) emptyList(bool) {}

func (discard) beginList(bool) {}

func (discard) elem(int) {}

func (discard) endList(bool) {}

func (discard) beginEntry() {}

func (discard) entryValue() {}

func (discard) endEntry() {}
