package pqcodec_test

import (
	"errors"
	"testing"

	"github.com/pqcodec/pqcodec"
	"github.com/pqcodec/pqcodec/encryption"
)

// TestErrDecrypt checks the place of decryption errors in the taxonomy:
// separate from damage.
func TestErrDecrypt(t *testing.T) {
	if !errors.Is(encryption.ErrDecrypt, pqcodec.ErrDecrypt) || errors.Is(encryption.ErrDecrypt, pqcodec.ErrCorrupt) {
		t.Error("encryption.ErrDecrypt must match pqcodec.ErrDecrypt and not pqcodec.ErrCorrupt")
	}
	if !errors.Is(encryption.ErrCorrupt, pqcodec.ErrCorrupt) || errors.Is(encryption.ErrCorrupt, pqcodec.ErrDecrypt) {
		t.Error("encryption.ErrCorrupt must match pqcodec.ErrCorrupt and not pqcodec.ErrDecrypt")
	}
	for _, err := range []error{encryption.ErrNoKey, encryption.ErrInvalidKey, encryption.ErrUnsupported} {
		if errors.Is(err, pqcodec.ErrDecrypt) || errors.Is(err, pqcodec.ErrCorrupt) {
			t.Errorf("%v matches a damage sentinel", err)
		}
	}
	if errors.Is(pqcodec.ErrDecrypt, pqcodec.ErrCorrupt) {
		t.Error("pqcodec.ErrDecrypt matches pqcodec.ErrCorrupt")
	}
}
