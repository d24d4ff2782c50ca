package main

import (
	"encoding/base64"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/pqcodec/pqcodec/column"
	"github.com/pqcodec/pqcodec/encryption"
)

// keyFlags are the decryption flags of cat and inspect. Their values are
// kept as given and parsed when the command runs, so that no error of the
// flag package repeats a key; no message of ours shows one either.
type keyFlags struct {
	footer  string
	columns []string
	aad     string
	aadSet  bool
}

const keySyntax = "KEY is env:NAME (an environment variable), file:PATH (a file's " +
	"contents, without a trailing newline), hex:..., base64:..., or the key's bytes"

// addKeyFlags registers --footer-key, --column-key and --aad-prefix on fs.
func addKeyFlags(fs *flag.FlagSet) *keyFlags {
	k := new(keyFlags)
	fs.Func("footer-key", "footer `KEY` of an encrypted file (16, 24 or 32 bytes); "+keySyntax, func(s string) error {
		k.footer = s
		return nil
	})
	fs.Func("column-key", "`COLUMN:KEY`, the key of the column at the dotted path COLUMN (repeat the flag for several)", func(s string) error {
		k.columns = append(k.columns, s)
		return nil
	})
	fs.Func("aad-prefix", "AAD `PREFIX` of an encrypted file that does not store it", func(s string) error {
		k.aad, k.aadSet = s, true
		return nil
	})
	return k
}

// keyBytes returns the key a KEY value names; errors name the flag, never
// the value.
func keyBytes(flagName, v string) ([]byte, error) {
	kind, rest, _ := strings.Cut(v, ":")
	var b []byte
	var err error
	switch kind {
	case "env":
		s, ok := os.LookupEnv(rest)
		if !ok {
			return nil, usagef("%s: environment variable %s is not set", flagName, rest)
		}
		b = []byte(s)
	case "file":
		if b, err = os.ReadFile(rest); err != nil {
			return nil, usagef("%s: %v", flagName, err)
		}
		b = []byte(strings.TrimRight(string(b), "\r\n"))
	case "hex":
		if b, err = hex.DecodeString(rest); err != nil {
			return nil, usagef("%s: the hex: key does not decode", flagName)
		}
	case "base64":
		if b, err = base64.StdEncoding.DecodeString(rest); err != nil {
			return nil, usagef("%s: the base64: key does not decode", flagName)
		}
	default:
		b = []byte(v)
	}
	switch len(b) {
	case 16, 24, 32:
		return b, nil
	}
	return nil, usagef("%s: a key of %d bytes; AES keys have 16, 24 or 32", flagName, len(b))
}

// option returns the column option of the flags: WithDecryption with their
// keys, or, when none is set, an option that changes nothing.
func (k *keyFlags) option() (column.Option, error) {
	p, err := k.properties()
	if err != nil {
		return nil, err
	}
	return column.WithDecryption(p), nil
}

// properties returns the decryption keys of the flags, nil when none is
// set.
func (k *keyFlags) properties() (*encryption.Properties, error) {
	if k.footer == "" && k.columns == nil && !k.aadSet {
		return nil, nil
	}
	p := &encryption.Properties{}
	var err error
	if k.footer != "" {
		if p.FooterKey, err = keyBytes("--footer-key", k.footer); err != nil {
			return nil, err
		}
	} else {
		// Without the footer key, read what the column keys open: the
		// columns of a file whose footer is plaintext.
		p.NoFooterSignature = true
	}
	for _, c := range k.columns {
		path, key, ok := strings.Cut(c, ":")
		if !ok || path == "" {
			return nil, usagef("--column-key: want COLUMN:KEY")
		}
		b, err := keyBytes(fmt.Sprintf("--column-key %s", path), key)
		if err != nil {
			return nil, err
		}
		if p.ColumnKeys == nil {
			p.ColumnKeys = make(map[string][]byte)
		}
		p.ColumnKeys[path] = b
	}
	if k.aadSet {
		p.AADPrefix = []byte(k.aad)
	}
	p.PlaintextFilesAllowed = true // the flags may be set for many files, some plaintext
	return p, nil
}

// decryptable reports whether the encrypted chunk of column col in row
// group rg has its key.
func decryptable(f *column.File, rg, col int) bool {
	ci, err := f.ChunkCipher(rg, col)
	return err == nil && ci != nil
}
