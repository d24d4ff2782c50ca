package format

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// ErrNotParquet is returned when a file lacks the trailing PAR1 magic or is
// too short to hold a footer.
var ErrNotParquet = errors.New("format: not a parquet file")

// ErrEncrypted is returned for files whose footer is encrypted (PARE magic)
// and, by the page walker and readers, for encrypted column chunks, when
// they are read without keys, or without the key they need
// ([ReadFooterDecrypt] and [DecryptColumnChunk] decrypt them).
var ErrEncrypted = errors.New("format: encrypted parquet file")

const (
	magic          = "PAR1"
	magicEncrypted = "PARE"
	// footerTail is the 4-byte footer length plus the 4-byte magic.
	footerTail = 8
)

// ReadFooter reads and decodes the footer of the parquet file of the given
// size held by r. It checks the trailing PAR1 magic (not the leading one,
// which parquet-java, arrow-cpp, arrow-rs and DuckDB do not read), returns
// [ErrEncrypted] for the PARE (encrypted footer) magic, and checks the footer
// length against the file size before reading it. Files with a plaintext
// footer but encrypted columns decode successfully; see
// [ColumnChunk.Encrypted]. It allocates at most the footer length plus the
// decoded metadata.
func ReadFooter(r io.ReaderAt, size int64) (*FileMetaData, error) {
	b, err := ReadFooterBytes(r, size)
	if err != nil {
		return nil, err
	}
	return DecodeFileMetaData(b)
}

// ReadFooterBytes is like [ReadFooter] but returns the raw thrift footer
// without decoding it.
func ReadFooterBytes(r io.ReaderAt, size int64) ([]byte, error) {
	if size < int64(len(magic))+footerTail {
		return nil, fmt.Errorf("%w: %d bytes is too short", ErrNotParquet, size)
	}
	var tail [footerTail]byte
	if err := ReadAt(r, tail[:], size-footerTail); err != nil {
		return nil, fmt.Errorf("format: reading footer length: %w", err)
	}
	switch string(tail[4:]) {
	case magic:
	case magicEncrypted:
		return nil, fmt.Errorf("%w: encrypted footer (PARE magic)", ErrEncrypted)
	default:
		return nil, fmt.Errorf("%w: trailing magic %q", ErrNotParquet, tail[4:])
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if n > size-int64(len(magic))-footerTail {
		return nil, fmt.Errorf("%w: footer length %d exceeds file size %d", ErrCorrupt, n, size)
	}
	b := make([]byte, n)
	if err := ReadAt(r, b, size-footerTail-n); err != nil {
		return nil, fmt.Errorf("format: reading footer: %w", err)
	}
	return b, nil
}

// ReadAt fills b from r at off, accepting io.EOF together with a full read
// as io.ReaderAt allows; a short read is an error (io.ErrUnexpectedEOF when
// r gave none). It is the one such read of the module's readers.
func ReadAt(r io.ReaderAt, b []byte, off int64) error {
	n, err := r.ReadAt(b, off)
	if n == len(b) {
		return nil
	}
	if err == nil || err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return err
}
