// Package encryption encrypts and decrypts the modules of Parquet Modular Encryption
// (https://github.com/apache/parquet-format/blob/master/Encryption.md): the
// encrypted footer, the signature of a plaintext footer, encrypted column
// metadata, page headers, pages, column and offset indexes and bloom
// filters, each an AES module with its own additional authenticated data
// (AAD), under the algorithms AES_GCM_V1 and AES_GCM_CTR_V1.
//
// A module is a 4-byte little-endian length followed by that many bytes: a
// 12-byte nonce, the ciphertext and, for AES-GCM, a 16-byte tag. Under
// AES_GCM_CTR_V1, pages (data and dictionary) are AES-CTR modules without a
// tag, as the specification defines them: their bytes are not
// authenticated, only everything else is.
//
// Keys come from a [Properties]: an explicit footer key, column keys by
// dotted column path, a key retriever mapping the key metadata stored in the
// file to a key, and the AAD prefix of files written without it. Keys never
// appear in error messages. The crypto is Go's standard library
// (crypto/aes, crypto/cipher), with the AES-NI, VAES and ARMv8 paths it has.
//
// Writers encrypt with a [FileEncryptor] made from [WriteProperties] (the
// footer key, column keys, algorithm, footer mode and AAD prefix) and a
// [ChunkEncryptor] per column chunk, whose AADs are the decryptors' own
// (one implementation for both directions) and whose nonces come from
// crypto/rand; package writer takes WriteProperties through
// writer.WithEncryption.
//
// The format package reads footers with it ([format.ReadFooterDecrypt]) and
// walks encrypted column chunks with a [ChunkDecryptor]; the column package
// takes a Properties through column.WithDecryption.
package encryption
