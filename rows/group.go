package rows

// Get returns the value of the field of g named name, and whether g has
// one: the first such field (a Group of a row read by [Reader.ReadRow] has
// unique names, as the schema's fields are). Nested fields are found by
// calling Get on the Group values.
func (g Group) Get(name string) (any, bool) {
	for i := range g {
		if g[i].Name == name {
			return g[i].Value, true
		}
	}
	return nil, false
}

// Index returns the index of the field of g named name, or -1.
func (g Group) Index(name string) int {
	for i := range g {
		if g[i].Name == name {
			return i
		}
	}
	return -1
}
