// Package errs holds the error taxonomy shared by every pqcodec package:
// the root sentinel [ErrCorrupt], exported by the module's root package as
// pqcodec.ErrCorrupt, and [Corrupt], which makes a package's own sentinel
// for damaged input match it under errors.Is.
package errs

import (
	"errors"
	"fmt"
)

// ErrCorrupt is matched by every error caused by damaged or inconsistent
// input bytes, from every layer.
var ErrCorrupt = errors.New("pqcodec: corrupt data")

// Corrupt returns a new sentinel error with text msg that errors.Is matches
// both to itself and to [ErrCorrupt]. Packages use it for their own
// ErrCorrupt (and other damaged-input sentinels), so their messages stay
// theirs, without the root sentinel's text repeated.
func Corrupt(msg string) error { return &sentinel{msg} }

type sentinel struct{ msg string }

func (e *sentinel) Error() string { return e.msg }

// Is reports whether target is the root sentinel; errors.Is compares the
// sentinel itself by identity before calling Is.
func (e *sentinel) Is(target error) bool { return target == ErrCorrupt }

// ErrDecrypt is matched by every error of Parquet Modular Encryption
// caused by a module that does not decrypt: a wrong key, a tag that does
// not verify (tampered ciphertext, AAD or nonce), a footer signature that
// does not match, or a module shorter than its nonce and tag. It is separate
// from [ErrCorrupt]: a wrong key is not damaged bytes.
var ErrDecrypt = errors.New("pqcodec: decryption failed")

// Decrypt returns a new sentinel error with text msg that errors.Is
// matches both to itself and to [ErrDecrypt], as [Corrupt] does for
// [ErrCorrupt].
func Decrypt(msg string) error { return &decryptSentinel{msg} }

type decryptSentinel struct{ msg string }

func (e *decryptSentinel) Error() string { return e.msg }

// Is reports whether target is [ErrDecrypt].
func (e *decryptSentinel) Is(target error) bool { return target == ErrDecrypt }

// ErrInvalidInput is matched by every error a writer returns for values,
// levels or schemas its caller passed that cannot be written.
var ErrInvalidInput = errors.New("pqcodec: invalid input")

// Invalid returns a new sentinel error with text msg that errors.Is matches
// both to itself and to [ErrInvalidInput], as [Corrupt] does for
// [ErrCorrupt].
func Invalid(msg string) error { return &invalid{msg} }

type invalid struct{ msg string }

func (e *invalid) Error() string { return e.msg }

// Is reports whether target is [ErrInvalidInput].
func (e *invalid) Is(target error) bool { return target == ErrInvalidInput }

// Detailf returns an error whose text is only the formatted detail and
// that errors.Is matches to sentinel (and to whatever sentinel matches): a
// lower layer's check whose caller wraps it in its own sentinel
// ("column: corrupt page: page crc32 ...") without the lower layer's name
// repeated in the message.
func Detailf(sentinel error, format string, args ...any) error {
	return &detail{fmt.Sprintf(format, args...), sentinel}
}

type detail struct {
	msg      string
	sentinel error
}

func (e *detail) Error() string { return e.msg }

// Is reports whether target is the sentinel or matched by it.
func (e *detail) Is(target error) bool { return errors.Is(e.sentinel, target) }
