package encryption

import (
	"crypto/aes"
	"crypto/cipher"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"
)

// This file reads the key metadata of parquet-java's key tools
// (PropertiesDrivenCryptoFactory, and arrow's CryptoFactory, which follow
// it): the key metadata of a footer or column is a JSON key material
// ("PKMT1") holding the data key wrapped by a master key of a KMS, stored
// in the file (internal storage) or, as a reference, in a JSON file beside
// it (external key material, _KEY_MATERIAL_FOR_<file name>.json).

// UnwrapFunc is the unwrap call of a KMS client: it returns the key that
// wrappedKey (base64, as the key material stores it) holds, wrapped by the
// master key masterKeyID.
type UnwrapFunc func(wrappedKey, masterKeyID string) ([]byte, error)

// keyMaterial is the JSON key material of parquet-java's key tools.
type keyMaterial struct {
	KeyMaterialType    string `json:"keyMaterialType"`
	InternalStorage    *bool  `json:"internalStorage"`
	KeyReference       string `json:"keyReference"`
	MasterKeyID        string `json:"masterKeyID"`
	WrappedDEK         string `json:"wrappedDEK"`
	DoubleWrapping     bool   `json:"doubleWrapping"`
	KeyEncryptionKeyID string `json:"keyEncryptionKeyID"`
	WrappedKEK         string `json:"wrappedKEK"`
}

// KeyToolsRetriever returns a key retriever ([Properties.KeyRetriever]) for
// files encrypted with parquet-java's key tools: it reads the key material
// of the key metadata, from the metadata itself or, for a file with
// external key material, from external (key reference to key material, as
// [ParseExternalKeyMaterial] returns it), and unwraps the data key with
// unwrap, the KMS: directly, or, with double wrapping, through the key
// encryption key that unwrap returns (each unwrapped once). A file with
// external key material and external nil gives an error saying which file
// holds the material. The retriever is safe for concurrent use.
func KeyToolsRetriever(unwrap UnwrapFunc, external map[string]string) func(keyMetadata []byte) ([]byte, error) {
	var mu sync.Mutex
	keks := make(map[string][]byte) // by key encryption key id
	return func(md []byte) ([]byte, error) {
		var km keyMaterial
		if err := json.Unmarshal(md, &km); err != nil {
			return nil, fmt.Errorf("%w: key metadata is not key tools' key material: %v", ErrCorrupt, err)
		}
		if km.InternalStorage != nil && !*km.InternalStorage {
			if external == nil {
				return nil, fmt.Errorf("%w: the file's key material is stored outside it (parquet-java external key material, reference %q): read its _KEY_MATERIAL_FOR_<file name>.json with ParseExternalKeyMaterial", ErrNoKey, km.KeyReference)
			}
			s, ok := external[km.KeyReference]
			if !ok {
				return nil, fmt.Errorf("%w: external key material has no key %q", ErrNoKey, km.KeyReference)
			}
			km = keyMaterial{}
			if err := json.Unmarshal([]byte(s), &km); err != nil {
				return nil, fmt.Errorf("%w: external key material: %v", ErrCorrupt, err)
			}
		}
		if km.KeyMaterialType != "PKMT1" {
			return nil, fmt.Errorf("%w: key material type %q", ErrUnsupported, km.KeyMaterialType)
		}
		if !km.DoubleWrapping {
			return unwrap(km.WrappedDEK, km.MasterKeyID)
		}
		mu.Lock()
		kek, ok := keks[km.KeyEncryptionKeyID]
		mu.Unlock()
		if !ok {
			var err error
			if kek, err = unwrap(km.WrappedKEK, km.MasterKeyID); err != nil {
				return nil, err
			}
			mu.Lock()
			keks[km.KeyEncryptionKeyID] = kek
			mu.Unlock()
		}
		aad, err := base64.StdEncoding.DecodeString(km.KeyEncryptionKeyID)
		if err != nil {
			return nil, fmt.Errorf("%w: key encryption key id: %v", ErrCorrupt, err)
		}
		return unwrapLocally(km.WrappedDEK, kek, aad)
	}
}

// unwrapLocally decrypts the base64 AES-GCM ciphertext (nonce, ciphertext,
// tag; no length) of a wrapped key with key and AAD aad, as parquet-java's
// KeyToolkit.decryptKeyLocally does.
func unwrapLocally(wrapped string, key, aad []byte) ([]byte, error) {
	b, err := base64.StdEncoding.DecodeString(wrapped)
	if err != nil {
		return nil, fmt.Errorf("%w: wrapped key: %v", ErrCorrupt, err)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("%w: key encryption key of %d bytes", ErrInvalidKey, len(key))
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidKey, err)
	}
	if len(b) < NonceSize+TagSize {
		return nil, fmt.Errorf("%w: wrapped key of %d bytes", ErrDecrypt, len(b))
	}
	out, err := gcm.Open(nil, b[:NonceSize], b[NonceSize:], aad)
	if err != nil {
		return nil, fmt.Errorf("%w: wrapped key does not unwrap (wrong master key?)", ErrDecrypt)
	}
	return out, nil
}

// LocalUnwrap returns the UnwrapFunc of a KMS that wraps keys locally with
// AES-GCM under master keys (by id), with the master key id as AAD:
// parquet-java's InMemoryKMS and arrow's TestOnlyInServerWrapKms, which
// their tests, and parquet-testing's external_key_material_java file, use.
func LocalUnwrap(masterKeys map[string][]byte) UnwrapFunc {
	return func(wrapped, id string) ([]byte, error) {
		mk, ok := masterKeys[id]
		if !ok {
			return nil, fmt.Errorf("%w: no master key %q", ErrNoKey, id)
		}
		return unwrapLocally(wrapped, mk, []byte(id))
	}
}

// ParseExternalKeyMaterial parses the JSON of a file's external key
// material (_KEY_MATERIAL_FOR_<file name>.json, see
// [ExternalKeyMaterialPath]): key references to key material, for
// [KeyToolsRetriever].
func ParseExternalKeyMaterial(b []byte) (map[string]string, error) {
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%w: external key material: %v", ErrCorrupt, err)
	}
	return m, nil
}

// ExternalKeyMaterialPath returns where parquet-java keeps the external key
// material of the Parquet file at path: _KEY_MATERIAL_FOR_<file name>.json
// in the same directory.
func ExternalKeyMaterialPath(path string) string {
	return filepath.Join(filepath.Dir(path), "_KEY_MATERIAL_FOR_"+filepath.Base(path)+".json")
}
