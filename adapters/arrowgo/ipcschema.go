package arrowgo

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/pqcodec/pqcodec/format"
)

// errArrowSchema reports an ARROW:schema whose flatbuffer points outside
// itself.
var errArrowSchema = fmt.Errorf("%w: ARROW:schema", ErrCorrupt)

// checkArrowSchema checks the stored ARROW:schema, if any, before pqarrow
// deserializes it: arrow-go's IPC reader sizes its slices by the lengths
// the flatbuffer claims (the fields of a schema, a message's length), so a
// damaged 500-byte footer made it allocate 10 GB before failing. Every
// table, vector and string the schema message reaches (fields, their
// names, types, dictionaries, children and metadata) must lie within the
// message; what it holds is left to arrow-go.
func checkArrowSchema(md *format.FileMetaData) error {
	for _, e := range md.KeyValueMetadata {
		if e.Key != "ARROW:schema" || e.Value == nil {
			continue
		}
		s := *e.Value
		var b []byte
		var err error
		if len(s)%4 == 0 {
			b, err = base64.StdEncoding.DecodeString(s)
		}
		if len(b) == 0 || err != nil {
			if b, err = base64.RawStdEncoding.DecodeString(s); err != nil {
				return nil // pqarrow reports it
			}
		}
		return checkIPCSchema(b)
	}
	return nil
}

// checkIPCSchema checks an encapsulated IPC message holding a schema.
func checkIPCSchema(b []byte) error {
	if len(b) >= 4 && binary.LittleEndian.Uint32(b) == 0xFFFFFFFF {
		b = b[4:]
	}
	if len(b) < 4 {
		return nil // arrow-go fails on it without allocating
	}
	n := int64(int32(binary.LittleEndian.Uint32(b)))
	b = b[4:]
	if n < 0 || n > int64(len(b)) {
		return fmt.Errorf("%w: message of %d bytes in %d", errArrowSchema, n, len(b))
	}
	if n == 0 {
		return nil
	}
	v := fbVerifier{b: b[:n], budget: int(n)/4 + 16}
	root, err := v.uoffset(0)
	if err != nil {
		return err
	}
	// Message: version, header_type, header (Schema), bodyLength,
	// custom_metadata.
	if err := v.table(root); err != nil {
		return err
	}
	if err := v.vectorOf(root, 4, v.keyValue); err != nil {
		return err
	}
	hdr, ok, err := v.ref(root, 2)
	if err != nil || !ok {
		return err
	}
	return v.schema(hdr)
}

// fbVerifier checks that the flatbuffer b's offsets stay within it.
type fbVerifier struct {
	b      []byte
	budget int // tables left to visit: offsets may share targets
	depth  int
}

var errFlatbuffer = errors.New("offset outside the message")

func (v *fbVerifier) fail(what string, at int) error {
	return fmt.Errorf("%w: %s at %d: %w", errArrowSchema, what, at, errFlatbuffer)
}

// uoffset returns the position the unsigned offset at p points to.
func (v *fbVerifier) uoffset(p int) (int, error) {
	if p < 0 || p+4 > len(v.b) {
		return 0, v.fail("offset", p)
	}
	t := int64(p) + int64(binary.LittleEndian.Uint32(v.b[p:]))
	if t >= int64(len(v.b)) {
		return 0, v.fail("offset target", p)
	}
	return int(t), nil
}

// table checks the table at pos and its vtable.
func (v *fbVerifier) table(pos int) error {
	if v.budget--; v.budget < 0 {
		return v.fail("table count", pos)
	}
	if pos < 0 || pos+4 > len(v.b) {
		return v.fail("table", pos)
	}
	vt := int64(pos) - int64(int32(binary.LittleEndian.Uint32(v.b[pos:])))
	if vt < 0 || vt+4 > int64(len(v.b)) {
		return v.fail("vtable", pos)
	}
	size := int64(binary.LittleEndian.Uint16(v.b[vt:]))
	if size < 4 || size%2 != 0 || vt+size > int64(len(v.b)) {
		return v.fail("vtable size", pos)
	}
	if tsize := int64(binary.LittleEndian.Uint16(v.b[vt+2:])); int64(pos)+tsize > int64(len(v.b)) {
		return v.fail("table size", pos)
	}
	return nil
}

// field returns the position of field i of the table at pos, ok false when
// absent.
func (v *fbVerifier) field(pos, i int) (int, bool) {
	vt := pos - int(int32(binary.LittleEndian.Uint32(v.b[pos:])))
	size := int(binary.LittleEndian.Uint16(v.b[vt:]))
	if 4+2*i+2 > size {
		return 0, false
	}
	off := int(binary.LittleEndian.Uint16(v.b[vt+4+2*i:]))
	if off == 0 {
		return 0, false
	}
	return pos + off, true
}

// ref returns the target of the offset field i of the table at pos.
func (v *fbVerifier) ref(pos, i int) (int, bool, error) {
	p, ok := v.field(pos, i)
	if !ok {
		return 0, false, nil
	}
	t, err := v.uoffset(p)
	return t, err == nil, err
}

// vector checks the vector of elements of size w that field i of the table
// at pos points to, and returns its start and length.
func (v *fbVerifier) vector(pos, i, w int) (int, int, bool, error) {
	t, ok, err := v.ref(pos, i)
	if err != nil || !ok {
		return 0, 0, false, err
	}
	if t+4 > len(v.b) {
		return 0, 0, false, v.fail("vector", t)
	}
	n := int64(binary.LittleEndian.Uint32(v.b[t:]))
	if n*int64(w) > int64(len(v.b)-t-4) {
		return 0, 0, false, v.fail(fmt.Sprintf("vector of %d", n), t)
	}
	return t + 4, int(n), true, nil
}

// vectorOf checks the vector of tables of field i of the table at pos,
// each with fn.
func (v *fbVerifier) vectorOf(pos, i int, fn func(int) error) error {
	start, n, ok, err := v.vector(pos, i, 4)
	if err != nil || !ok {
		return err
	}
	for k := range n {
		t, err := v.uoffset(start + 4*k)
		if err != nil {
			return err
		}
		if err := fn(t); err != nil {
			return err
		}
	}
	return nil
}

// str checks the string of field i of the table at pos.
func (v *fbVerifier) str(pos, i int) error {
	_, _, _, err := v.vector(pos, i, 1)
	return err
}

func (v *fbVerifier) keyValue(pos int) error {
	if err := v.table(pos); err != nil {
		return err
	}
	if err := v.str(pos, 0); err != nil {
		return err
	}
	return v.str(pos, 1)
}

// schema checks a Schema table: fields, custom_metadata, features.
func (v *fbVerifier) schema(pos int) error {
	if err := v.table(pos); err != nil {
		return err
	}
	if err := v.vectorOf(pos, 1, v.arrowField); err != nil {
		return err
	}
	if err := v.vectorOf(pos, 2, v.keyValue); err != nil {
		return err
	}
	_, _, _, err := v.vector(pos, 3, 8)
	return err
}

// arrowField checks a Field table: name, type, dictionary (and its index
// type), children, custom_metadata.
func (v *fbVerifier) arrowField(pos int) error {
	if v.depth++; v.depth > 64 {
		return v.fail("nesting", pos)
	}
	defer func() { v.depth-- }()
	if err := v.table(pos); err != nil {
		return err
	}
	if err := v.str(pos, 0); err != nil {
		return err
	}
	if t, ok, err := v.ref(pos, 3); err != nil {
		return err
	} else if ok {
		if err := v.table(t); err != nil {
			return err
		}
	}
	if d, ok, err := v.ref(pos, 4); err != nil {
		return err
	} else if ok {
		if err := v.table(d); err != nil {
			return err
		}
		if it, ok, err := v.ref(d, 1); err != nil {
			return err
		} else if ok {
			if err := v.table(it); err != nil {
				return err
			}
		}
	}
	if err := v.vectorOf(pos, 5, v.arrowField); err != nil {
		return err
	}
	return v.vectorOf(pos, 6, v.keyValue)
}
