package encryption

import (
	"bytes"
	"fmt"
	"sync"
)

// Properties are the keys with which a reader decrypts a file. The zero
// value holds no key: a file with a plaintext footer then reads its
// unencrypted columns only.
//
// A Properties must not be modified once given to a reader; it may be
// shared by readers of many files.
type Properties struct {
	// FooterKey decrypts an encrypted footer, verifies the signature of a
	// plaintext one, and decrypts the columns encrypted with the footer
	// key. When nil, KeyRetriever is asked with the footer's key metadata.
	FooterKey []byte
	// ColumnKeys holds column keys by dotted column path
	// ("a.list.element"), as parquet-java and arrow name columns. A column
	// without an entry is asked of KeyRetriever.
	ColumnKeys map[string][]byte
	// KeyRetriever returns the key of the key metadata a file stores (the
	// key ids of parquet-java's and arrow's examples, or the serialized
	// key material of their KMS tools). An error it returns is wrapped, with
	// [ErrNoKey], in the error of the module that needed the key.
	KeyRetriever func(keyMetadata []byte) ([]byte, error)
	// AADPrefix is the AAD prefix of a file written with
	// supply_aad_prefix (arrow's disable_aad_prefix_storage), which does
	// not store it. For a file that stores its prefix, a non-nil AADPrefix
	// must equal it (the check of the file's identity that parquet-java and
	// arrow offer).
	AADPrefix []byte
	// NoFooterSignature skips the check of a plaintext footer's signature,
	// as readers without the footer key do; the columns encrypted with
	// column keys still decrypt and verify.
	NoFooterSignature bool
	// PlaintextFilesAllowed lets a reader given Properties read files that
	// are not encrypted. Otherwise such a file is an error wrapping
	// [ErrDecrypt], as in parquet-java and arrow: the keys say the file
	// should be encrypted, and a plaintext footer stripped of its
	// encryption_algorithm would otherwise escape the signature check.
	PlaintextFilesAllowed bool
}

// FileDecryptor decrypts the modules of one file: it holds the file's
// algorithm and AAD, and the Cipher of each key, made once. It is safe for
// concurrent use.
type FileDecryptor struct {
	props     *Properties
	alg       Algorithm
	fileAAD   []byte
	footerKMD []byte // the footer's key metadata

	mu      sync.Mutex
	ciphers map[string]*Cipher // by key, so columns sharing a key share its Cipher
}

// NewFileDecryptor returns the decryptor of a file encrypted with alg whose
// EncryptionAlgorithm holds aadPrefix, aadFileUnique and supplyAADPrefix,
// and whose footer key metadata (FileCryptoMetaData.key_metadata or
// FileMetaData.footer_signing_key_metadata) is footerKeyMetadata.
// The file AAD is the prefix (stored, or supplied by p) followed by
// aadFileUnique. An unknown algorithm returns an error wrapping
// [ErrUnsupported]; a file that needs a supplied prefix p lacks, an error
// wrapping [ErrNoKey]; a supplied prefix other than the stored one, an
// error wrapping [ErrDecrypt]. p may be nil (no keys).
func NewFileDecryptor(p *Properties, alg Algorithm, aadPrefix, aadFileUnique []byte, supplyAADPrefix bool, footerKeyMetadata []byte) (*FileDecryptor, error) {
	if p == nil {
		p = new(Properties)
	}
	if alg != AesGcmV1 && alg != AesGcmCtrV1 {
		return nil, fmt.Errorf("%w: encryption algorithm %v", ErrUnsupported, alg)
	}
	prefix := aadPrefix
	switch {
	case p.AADPrefix != nil && aadPrefix != nil && !bytes.Equal(p.AADPrefix, aadPrefix):
		return nil, fmt.Errorf("%w: the AAD prefix given differs from the file's", ErrDecrypt)
	case p.AADPrefix != nil:
		prefix = p.AADPrefix
	case supplyAADPrefix && aadPrefix == nil:
		return nil, fmt.Errorf("%w: the file does not store its AAD prefix, and none was given", ErrNoKey)
	}
	aad := make([]byte, 0, len(prefix)+len(aadFileUnique))
	aad = append(append(aad, prefix...), aadFileUnique...)
	return &FileDecryptor{props: p, alg: alg, fileAAD: aad, footerKMD: footerKeyMetadata}, nil
}

// Algorithm returns the file's encryption algorithm.
func (d *FileDecryptor) Algorithm() Algorithm { return d.alg }

// FileAAD returns the file AAD. It must not be modified.
func (d *FileDecryptor) FileAAD() []byte { return d.fileAAD }

// Properties returns the keys d was made with.
func (d *FileDecryptor) Properties() *Properties { return d.props }

// cipher returns the Cipher of key, made once.
func (d *FileDecryptor) cipher(key []byte) (*Cipher, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if c := d.ciphers[string(key)]; c != nil {
		return c, nil
	}
	c, err := NewCipher(key)
	if err != nil {
		return nil, err
	}
	if d.ciphers == nil {
		d.ciphers = make(map[string]*Cipher)
	}
	d.ciphers[string(key)] = c
	return c, nil
}

// retrieve asks the key retriever for the key of keyMetadata.
func (d *FileDecryptor) retrieve(what string, keyMetadata []byte) (*Cipher, error) {
	if d.props.KeyRetriever == nil {
		return nil, fmt.Errorf("%w: no %s given, and no key retriever", ErrNoKey, what)
	}
	key, err := d.props.KeyRetriever(keyMetadata)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: key retriever: %w", ErrNoKey, what, err)
	}
	if len(key) == 0 {
		return nil, fmt.Errorf("%w: %s: the key retriever returned no key", ErrNoKey, what)
	}
	c, err := d.cipher(key)
	if err != nil {
		return nil, fmt.Errorf("%s from the key retriever: %w", what, err)
	}
	return c, nil
}

// FooterCipher returns the Cipher of the footer key: Properties.FooterKey,
// or the key retriever's key for the file's footer key metadata. Without
// either it returns an error wrapping [ErrNoKey].
func (d *FileDecryptor) FooterCipher() (*Cipher, error) {
	if k := d.props.FooterKey; k != nil {
		c, err := d.cipher(k)
		if err != nil {
			return nil, fmt.Errorf("footer key: %w", err)
		}
		return c, nil
	}
	return d.retrieve("footer key", d.footerKMD)
}

// ColumnCipher returns the Cipher of the key of the column at dotted path
// path encrypted with its own key: Properties.ColumnKeys[path], or the key
// retriever's key for keyMetadata (the column's key metadata). Without
// either it returns an error wrapping [ErrNoKey] that names the column.
func (d *FileDecryptor) ColumnCipher(path string, keyMetadata []byte) (*Cipher, error) {
	if k, ok := d.props.ColumnKeys[path]; ok {
		c, err := d.cipher(k)
		if err != nil {
			return nil, fmt.Errorf("key of column %s: %w", path, err)
		}
		return c, nil
	}
	return d.retrieve("key of column "+path, keyMetadata)
}

// DecryptModule decrypts the AES-GCM module of type t (not a page) of row
// group rowGroup and column column (both ignored for the footer) with c,
// into dst reusing its capacity; see [Cipher.DecryptGCM].
func (d *FileDecryptor) DecryptModule(c *Cipher, dst, module []byte, t ModuleType, rowGroup, column int) ([]byte, error) {
	var buf [64]byte
	aad, err := AppendModuleAAD(buf[:0], d.fileAAD, t, rowGroup, column, 0)
	if err != nil {
		return dst[:0], err
	}
	out, err := c.DecryptGCM(dst, module, aad)
	if err != nil {
		return out, fmt.Errorf("%s: %w", t, err)
	}
	return out, nil
}
