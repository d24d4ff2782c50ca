package rows

import (
	"io"
)

// jsonSink writes JSON text, to dst and, when w is set, from dst to w
// whenever dst holds jsonFlush bytes or more after a value.
type jsonSink struct {
	dst   []byte
	w     io.Writer
	start int       // len(dst) when AppendRow started
	limit *rowLimit // AppendRow's bound; WriteRow (w set) streams unbounded
}

// count counts a value that grew dst from before bytes, unless streaming.
func (j *jsonSink) count(before int) error {
	if j.w != nil {
		return nil
	}
	return j.limit.add(int64(len(j.dst) - before))
}

// jsonFlush is how much of a row's text WriteRow holds before writing it.
const jsonFlush = 32 << 10

// flush writes dst to w and empties it.
func (j *jsonSink) flush() error {
	_, err := j.w.Write(j.dst)
	j.dst = j.dst[:0]
	return err
}

func (j *jsonSink) null() error {
	j.dst = append(j.dst, "null"...)
	return j.count(len(j.dst) - 4)
}

func (j *jsonSink) leaf(c *cursor) error {
	var err error
	before := len(j.dst)
	if j.dst, err = c.appendValue(j.dst); err != nil {
		return err
	}
	if err := j.count(before); err != nil {
		return err
	}
	if j.w != nil && len(j.dst) >= jsonFlush {
		return j.flush()
	}
	return nil
}

func (j *jsonSink) beginGroup() { j.dst = append(j.dst, '{') }

func (j *jsonSink) name(name string, i int) {
	if i > 0 {
		j.dst = append(j.dst, ',')
	}
	j.dst = AppendString(j.dst, []byte(name))
	j.dst = append(j.dst, ':')
}

func (j *jsonSink) endGroup() { j.dst = append(j.dst, '}') }

func (j *jsonSink) emptyList(isMap bool) { j.dst = append(j.dst, "[]"...) }

func (j *jsonSink) beginList(isMap bool) { j.dst = append(j.dst, '[') }

func (j *jsonSink) elem(i int) {
	if i > 0 {
		j.dst = append(j.dst, ',')
	}
}

func (j *jsonSink) endList(isMap bool) { j.dst = append(j.dst, ']') }

func (j *jsonSink) beginEntry() { j.dst = append(j.dst, `{"key":`...) }

func (j *jsonSink) entryValue() { j.dst = append(j.dst, `,"value":`...) }

func (j *jsonSink) endEntry() { j.dst = append(j.dst, '}') }
