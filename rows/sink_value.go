package rows

// valueSink builds Go values on a stack of open containers.
type valueSink struct {
	stack []frame
	top   Group     // the row
	limit *rowLimit // ReadRow's bound
}

// valueCost is what ReadRow counts for one value besides its bytes: its
// interface in a list or a Field, the boxed value, and the list's growth.
const valueCost = 32

type frameKind uint8

const (
	frameGroup frameKind = iota
	frameList
	frameMap
	frameEntry
)

type frame struct {
	kind  frameKind
	group Group
	list  []any
	kvs   []KeyValue
	name  string // group: the pending field's name
	entry KeyValue
	key   bool // entry: the key has been set
}

func (v *valueSink) reset(dst Group) {
	v.stack = v.stack[:0]
	v.top = dst
}

func (v *valueSink) row() Group { return v.top }

// put adds x to the innermost open container.
func (v *valueSink) put(x any) {
	f := &v.stack[len(v.stack)-1]
	switch f.kind {
	case frameGroup:
		f.group = append(f.group, Field{Name: f.name, Value: x})
	case frameList:
		f.list = append(f.list, x)
	case frameEntry:
		if !f.key {
			f.entry.Key, f.key = x, true
		} else {
			f.entry.Value = x
		}
	}
}

func (v *valueSink) pop() frame {
	f := v.stack[len(v.stack)-1]
	v.stack = v.stack[:len(v.stack)-1]
	return f
}

func (v *valueSink) null() error {
	if err := v.limit.add(valueCost); err != nil {
		return err
	}
	v.put(nil)
	return nil
}

func (v *valueSink) leaf(c *cursor) error {
	if err := v.limit.add(valueCost + c.valueBytes()); err != nil {
		return err
	}
	x, err := c.value()
	if err != nil {
		return err
	}
	v.put(x)
	return nil
}

func (v *valueSink) beginGroup() {
	if len(v.stack) == 0 {
		v.stack = append(v.stack, frame{kind: frameGroup, group: v.top})
		return
	}
	v.stack = append(v.stack, frame{kind: frameGroup})
}

func (v *valueSink) name(name string, _ int) { v.stack[len(v.stack)-1].name = name }

func (v *valueSink) endGroup() {
	f := v.pop()
	if len(v.stack) == 0 {
		v.top = f.group
		return
	}
	v.put(f.group)
}

func (v *valueSink) emptyList(isMap bool) {
	if isMap {
		v.put([]KeyValue{})
	} else {
		v.put([]any{})
	}
}

func (v *valueSink) beginList(isMap bool) {
	k := frameList
	if isMap {
		k = frameMap
	}
	v.stack = append(v.stack, frame{kind: k})
}

func (v *valueSink) elem(int) {}

func (v *valueSink) endList(isMap bool) {
	f := v.pop()
	if isMap {
		v.put(f.kvs)
	} else {
		v.put(f.list)
	}
}

func (v *valueSink) beginEntry() { v.stack = append(v.stack, frame{kind: frameEntry}) }

func (v *valueSink) entryValue() {}

func (v *valueSink) endEntry() {
	f := v.pop()
	m := &v.stack[len(v.stack)-1]
	m.kvs = append(m.kvs, f.entry)
}
