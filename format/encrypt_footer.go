package format

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/pqcodec/pqcodec/encryption"
)

// This file writes the metadata of files of Parquet Modular Encryption:
// the crypto metadata of each encrypted column chunk, its encrypted
// ColumnMetaData, and the footer, encrypted or signed. Package writer and
// package recompress call it.

// EncryptColumnMetaData sets the crypto metadata of every column chunk of
// m that fe encrypts (by its path_in_schema) and, where the specification
// asks (a column key, or a plaintext footer), encrypts its ColumnMetaData
// as the ColumnMetaData module of its row group and column ordinals: with
// an encrypted footer the chunk then holds only the encrypted form; with a
// plaintext footer it also keeps a copy without statistics, encoding
// statistics and size statistics for readers without the key, as
// parquet-java and arrow-cpp do. Crypto metadata m held before is
// replaced; chunks fe leaves in the clear lose theirs. Every chunk must
// have its (plaintext) MetaData.
func EncryptColumnMetaData(m *FileMetaData, fe *encryption.FileEncryptor) error {
	plainFooter := fe.Properties().PlaintextFooter
	for g := range m.RowGroups {
		for i := range m.RowGroups[g].Columns {
			cc := &m.RowGroups[g].Columns[i]
			cc.CryptoMetadata, cc.EncryptedColumnMetadata = nil, nil
			if cc.MetaData == nil {
				return fmt.Errorf("%w: row group %d column %d without metadata", ErrCorrupt, g, i)
			}
			path := strings.Join(cc.MetaData.PathInSchema, ".")
			ci, withFooter, kmd := fe.Column(path)
			if ci == nil {
				continue
			}
			if withFooter {
				cc.CryptoMetadata = &ColumnCryptoMetaData{Kind: EncryptionWithFooterKey}
			} else {
				cc.CryptoMetadata = &ColumnCryptoMetaData{Kind: EncryptionWithColumnKey,
					PathInSchema: cc.MetaData.PathInSchema, KeyMetadata: kmd}
			}
			if withFooter && !plainFooter {
				continue
			}
			enc, err := fe.AppendModule(ci, nil, AppendColumnMetaData(nil, cc.MetaData), encryption.ColumnMetaData, g, i)
			if err != nil {
				return fmt.Errorf("column %s: %w", path, err)
			}
			cc.EncryptedColumnMetadata = enc
			if !plainFooter {
				cc.MetaData = nil
				continue
			}
			md := *cc.MetaData
			md.Statistics, md.EncodingStats, md.SizeStatistics = nil, nil, nil
			cc.MetaData = &md
		}
	}
	return nil
}

// AppendEncryptedFooter appends to dst the footer of an encrypted file
// with metadata m, after [EncryptColumnMetaData], with its length and
// magic: the FileCryptoMetaData and the encrypted FileMetaData (PARE
// magic), or, under a plaintext footer, the FileMetaData with its
// encryption algorithm and signature (PAR1). scratch, which may be nil, is
// returned for reuse. m's encryption_algorithm and
// footer_signing_key_metadata are set or cleared accordingly.
func AppendEncryptedFooter(dst, scratch []byte, m *FileMetaData, fe *encryption.FileEncryptor) (out, buf []byte, err error) {
	start := len(dst)
	p := fe.Properties()
	prefix, unique, supply := fe.AAD()
	// supply_aad_prefix is optional, but arrow-go v18.8 dereferences it
	// without a check (a nil pointer panic): it is written always, as
	// arrow-cpp does.
	alg := EncryptionAlgorithm{Kind: EncryptionAlgorithmKind(fe.Algorithm()),
		AadPrefix: prefix, AadFileUnique: unique, SupplyAadPrefix: &supply}
	if p.PlaintextFooter {
		m.EncryptionAlgorithm, m.FooterSigningKeyMetadata = &alg, p.FooterKeyMetadata
		dst = AppendFileMetaData(dst, m)
		dst, scratch = fe.AppendFooterSignature(dst, scratch, dst[start:])
		dst = binary.LittleEndian.AppendUint32(dst, uint32(len(dst)-start))
		return append(dst, magic...), scratch, nil
	}
	m.EncryptionAlgorithm, m.FooterSigningKeyMetadata = nil, nil
	dst = AppendFileCryptoMetaData(dst, &FileCryptoMetaData{EncryptionAlgorithm: alg, KeyMetadata: p.FooterKeyMetadata})
	scratch = AppendFileMetaData(scratch[:0], m)
	if dst, err = fe.AppendModule(fe.FooterCipher(), dst, scratch, encryption.Footer, 0, 0); err != nil {
		return dst, scratch, fmt.Errorf("footer: %w", err)
	}
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(dst)-start))
	return append(dst, magicEncrypted...), scratch, nil
}
