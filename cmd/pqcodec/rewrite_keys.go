package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/pqcodec/pqcodec/encryption"
	"github.com/pqcodec/pqcodec/recompress"
)

// This file holds the encryption flags of rewrite: --footer-key,
// --column-key and --aad-prefix decrypt the input (as for cat), the
// --encrypt-* flags encrypt the output. The hooks in rewrite.go that call
// it are marked "encryption".

// encryptFlags are the output encryption flags of rewrite, kept as given
// and parsed when the command runs (see keyFlags).
type encryptFlags struct {
	footer, footerID string
	columns          []string
	columnIDs        []string
	algorithm        string
	plaintextFooter  bool
	aad              string
	aadSet           bool
	aadNotStored     bool
}

// rewriteCrypt are the decryption and encryption flags of rewrite.
type rewriteCrypt struct {
	in  *keyFlags
	out encryptFlags
	// Parsed by options.
	inKeys  *encryption.Properties
	outKeys *encryption.Properties
}

func addRewriteCryptFlags(fs *flag.FlagSet, c *rewriteCrypt) {
	c.in = addKeyFlags(fs)
	o := &c.out
	fs.Func("encrypt-footer-key", "encrypt the output: its footer `KEY` (16, 24 or 32 bytes), which also encrypts every column without "+
		"--encrypt-column-key; "+keySyntax, func(s string) error { o.footer = s; return nil })
	fs.StringVar(&o.footerID, "encrypt-footer-key-id", "", "key metadata `ID` stored for the output's footer key (for key retrievers)")
	fs.Func("encrypt-column-key", "`COLUMN:KEY`: encrypt the output's column at the dotted path COLUMN with its own key (repeat the flag; "+
		"with any, the columns not named stay in the clear; KEY may be footer for the footer key)", func(s string) error {
		o.columns = append(o.columns, s)
		return nil
	})
	fs.Func("encrypt-column-key-id", "`COLUMN:ID`: key metadata stored for the key of an --encrypt-column-key column", func(s string) error {
		o.columnIDs = append(o.columnIDs, s)
		return nil
	})
	fs.StringVar(&o.algorithm, "encrypt-algorithm", "gcm", "output encryption `gcm|ctr`: AES_GCM_V1, or AES_GCM_CTR_V1 (pages AES-CTR)")
	fs.BoolVar(&o.plaintextFooter, "encrypt-plaintext-footer", false, "keep the output's footer in the clear, signed with the footer key")
	fs.Func("encrypt-aad-prefix", "the output's AAD `PREFIX` (the file's identity, stored unless --encrypt-aad-prefix-not-stored)", func(s string) error {
		o.aad, o.aadSet = s, true
		return nil
	})
	fs.BoolVar(&o.aadNotStored, "encrypt-aad-prefix-not-stored", false, "do not store the output's AAD prefix: readers must be given it")
}

// writeProperties returns the output encryption of the flags, nil when no
// --encrypt-footer-key is given (then every other --encrypt flag is an
// error).
func (o *encryptFlags) writeProperties() (*encryption.WriteProperties, error) {
	if o.footer == "" {
		if o.columns != nil || o.columnIDs != nil || o.footerID != "" || o.plaintextFooter || o.aadSet || o.aadNotStored || o.algorithm != "gcm" {
			return nil, usagef("the --encrypt flags need --encrypt-footer-key")
		}
		return nil, nil
	}
	p := &encryption.WriteProperties{PlaintextFooter: o.plaintextFooter, DisableAADPrefixStorage: o.aadNotStored}
	var err error
	if p.FooterKey, err = keyBytes("--encrypt-footer-key", o.footer); err != nil {
		return nil, err
	}
	if o.footerID != "" {
		p.FooterKeyMetadata = []byte(o.footerID)
	}
	switch o.algorithm {
	case "gcm":
		p.Algorithm = encryption.AesGcmV1
	case "ctr":
		p.Algorithm = encryption.AesGcmCtrV1
	default:
		return nil, usagef("--encrypt-algorithm %q: want gcm or ctr", o.algorithm)
	}
	if o.aadSet {
		p.AADPrefix = []byte(o.aad)
	} else if o.aadNotStored {
		return nil, usagef("--encrypt-aad-prefix-not-stored needs --encrypt-aad-prefix")
	}
	for _, c := range o.columns {
		path, key, ok := strings.Cut(c, ":")
		if !ok || path == "" {
			return nil, usagef("--encrypt-column-key: want COLUMN:KEY")
		}
		var ck encryption.ColumnKey
		if key != "footer" {
			if ck.Key, err = keyBytes(fmt.Sprintf("--encrypt-column-key %s", path), key); err != nil {
				return nil, err
			}
		}
		if p.ColumnKeys == nil {
			p.ColumnKeys = make(map[string]encryption.ColumnKey)
		}
		p.ColumnKeys[path] = ck
	}
	for _, c := range o.columnIDs {
		path, id, ok := strings.Cut(c, ":")
		ck, known := p.ColumnKeys[path]
		if !ok || !known {
			return nil, usagef("--encrypt-column-key-id: want COLUMN:ID for a column of --encrypt-column-key")
		}
		ck.KeyMetadata = []byte(id)
		p.ColumnKeys[path] = ck
	}
	return p, nil
}

// options returns the rewrite options of the flags.
func (c *rewriteCrypt) options() ([]recompress.Option, error) {
	var opts []recompress.Option
	in, err := c.in.properties()
	if err != nil {
		return nil, err
	}
	if in != nil {
		opts = append(opts, recompress.WithDecryption(in))
		c.inKeys = in
	}
	out, err := c.out.writeProperties()
	if err != nil {
		return nil, err
	}
	if out != nil {
		opts = append(opts, recompress.WithEncryption(out))
		// The keys that read the output back, for --verify.
		c.outKeys = &encryption.Properties{FooterKey: out.FooterKey, AADPrefix: out.AADPrefix}
		for path, k := range out.ColumnKeys {
			if k.Key != nil {
				if c.outKeys.ColumnKeys == nil {
					c.outKeys.ColumnKeys = make(map[string][]byte)
				}
				c.outKeys.ColumnKeys[path] = k.Key
			}
		}
	}
	return opts, nil
}

// active reports whether either side is encrypted.
func (c *rewriteCrypt) active() bool { return c.inKeys != nil || c.outKeys != nil }

// verify checks the output of a rewrite with the keys of both sides.
func (c *rewriteCrypt) verify(src io.ReaderAt, srcSize int64, out io.ReaderAt, outSize int64) error {
	if !c.active() {
		return recompress.Verify(src, srcSize, out, outSize, nil)
	}
	return recompress.VerifyDecrypt(src, srcSize, c.inKeys, out, outSize, c.outKeys, nil)
}
