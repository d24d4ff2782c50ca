// gen.mjs writes the JavaScript-reachable part of testdata/foreign: files by
// DuckDB (@duckdb/node-api), arrow-rs (parquet-wasm) and Polars
// (nodejs-polars), each with its expected rows (NAME.parquet ->
// NAME.jsonl, rendered by render.mjs), and cross-checks the rows of every
// file in testdata/foreign (the Go writers' too) with DuckDB.
//
// Usage: node gen.mjs OUTDIR (make foreign-corpus). The data is fixed (no
// random source without a seed, no clock), so two runs write the same bytes.
import { DuckDBInstance } from '@duckdb/node-api';
import * as pw from 'parquet-wasm';
import * as arrow from 'apache-arrow';
import pl from 'nodejs-polars';
import * as hw from 'hyparquet-writer';
import * as hq from 'hyparquet';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { renderFile } from './render.mjs';

const out = path.resolve(process.argv[2] || '../../testdata/foreign');
const N = 1200;

const inst = await DuckDBInstance.create(':memory:', { threads: '1' });
const conn = await inst.connect();
await conn.run(`SET preserve_insertion_order = true`);
await conn.run(`SET TimeZone = 'UTC'`);

// The source table: every type DuckDB writes, with extremes, NaN, ±Inf, -0,
// subnormals, empty/unicode/long strings, nulls, and nested values.
const BASE = `
CREATE TABLE base AS SELECT
  i::INTEGER AS id,
  (i % 3 = 0) AS b,
  CASE WHEN i % 7 = 0 THEN NULL ELSE i % 5 = 1 END AS ob,
  CASE i % 4 WHEN 0 THEN -2147483648 WHEN 1 THEN 2147483647 WHEN 2 THEN 0 ELSE (i * 2654435761) % 4294967296 - 2147483648 END::INTEGER AS i32,
  CASE WHEN i % 2 = 0 THEN -2147483648 ELSE 2147483647 END::INTEGER AS i32_alt,
  CASE WHEN i % 11 = 0 THEN NULL ELSE i * 7 - 10000 END::INTEGER AS oi32,
  CASE i % 4 WHEN 0 THEN -9223372036854775808 WHEN 1 THEN 9223372036854775807 WHEN 2 THEN 0 ELSE (i::HUGEINT * 11400714819323198485) % 18446744073709551616 - 9223372036854775808 END::BIGINT AS i64,
  CASE WHEN i % 2 = 0 THEN -9223372036854775808 ELSE 9223372036854775807 END::BIGINT AS i64_alt,
  (i * 1000003)::BIGINT AS i64_seq,
  CASE i % 3 WHEN 0 THEN -128 WHEN 1 THEN 127 ELSE i % 100 END::TINYINT AS i8,
  CASE i % 3 WHEN 0 THEN -32768 WHEN 1 THEN 32767 ELSE i END::SMALLINT AS i16,
  CASE i % 2 WHEN 0 THEN 255 ELSE i % 256 END::UTINYINT AS u8,
  CASE i % 2 WHEN 0 THEN 65535 ELSE i END::USMALLINT AS u16,
  CASE i % 3 WHEN 0 THEN 4294967295 WHEN 1 THEN 0 ELSE i * 1000 END::UINTEGER AS u32,
  CASE i % 3 WHEN 0 THEN 18446744073709551615 WHEN 1 THEN 0 ELSE i * 1000000007 END::UBIGINT AS u64,
  CASE i % 10 WHEN 0 THEN 'nan'::FLOAT WHEN 1 THEN 'inf'::FLOAT WHEN 2 THEN '-inf'::FLOAT WHEN 3 THEN '-0.0'::FLOAT
    WHEN 4 THEN '1.4e-45'::FLOAT WHEN 5 THEN '1.1754942e-38'::FLOAT WHEN 6 THEN '3.4028235e38'::FLOAT
    WHEN 7 THEN NULL ELSE (i * 0.1)::FLOAT END AS f32,
  CASE i % 10 WHEN 0 THEN 'nan'::DOUBLE WHEN 1 THEN 'inf'::DOUBLE WHEN 2 THEN '-inf'::DOUBLE WHEN 3 THEN '-0.0'::DOUBLE
    WHEN 4 THEN '5e-324'::DOUBLE WHEN 5 THEN '2.2250738585072e-308'::DOUBLE WHEN 6 THEN '1.7976931348623157e308'::DOUBLE
    WHEN 7 THEN 1e21 ELSE i / 7.0 END AS f64,
  (i * 0.25)::DOUBLE AS f64_req,
  CASE i % 9 WHEN 0 THEN '' WHEN 1 THEN 'héllo wörld ✓ 日本語 🎉' WHEN 2 THEN CASE WHEN i % 45 = 2 THEN repeat('long-', 205 + i % 7) ELSE 'mid ' || repeat('ab', i % 40) END
    WHEN 3 THEN NULL WHEN 4 THEN 'tab' || chr(9) || 'quote"back\\slash' || chr(10) || chr(1) ELSE 'row ' || i END AS s,
  'cat_' || (i % 20) AS lowcard,
  md5(i::VARCHAR)[1:12] AS highcard,
  CASE WHEN i % 13 = 0 THEN NULL ELSE unhex(md5(i::VARCHAR))[1:1 + i % 17] END AS bl,
  md5('u' || i)::UUID AS uu,
  ((i % 2000 - 1000) / 10)::DECIMAL(4, 1) AS d4,
  CASE i % 3 WHEN 0 THEN 9999999.99 WHEN 1 THEN -9999999.99 ELSE i * 1.01 END::DECIMAL(9, 2) AS d9,
  CASE i % 3 WHEN 0 THEN 999999999999999.999 WHEN 1 THEN -999999999999999.999 ELSE i * 3.003 END::DECIMAL(18, 3) AS d18,
  CASE i % 3 WHEN 0 THEN '9999999999999999999999999999.9999999999'::DECIMAL(38, 10) WHEN 1 THEN '-9999999999999999999999999999.9999999999'::DECIMAL(38, 10)
    ELSE (i * 12345.6789)::DECIMAL(38, 10) END AS d38,
  (DATE '1970-01-01' + (i * 37 - 50000)::INTEGER)::DATE AS dt,
  (TIME '00:00:00' + to_microseconds((i * 28123456) % 86400000000))::TIME AS tm,
  TIMESTAMP '1900-01-01 00:00:00' + to_microseconds(i * 1234567891) AS ts,
  (TIMESTAMP '2024-02-29 12:00:00' + to_milliseconds(i * 1001))::TIMESTAMP_MS AS ts_ms,
  make_timestamp_ns(-9223286400000000000 + i * 98765432109123) AS ts_ns,
  (TIMESTAMP '2000-01-01 00:00:00' + to_seconds(i * 3600))::TIMESTAMP_S AS ts_s,
  (TIMESTAMPTZ '2020-06-01 00:00:00+00' + to_microseconds(i * 77777)) AS tstz,
  (['red', 'green', 'blue'])[1 + i % 3]::ENUM('red', 'green', 'blue') AS en,
  NULL::INTEGER AS allnull,
  CASE i % 6 WHEN 0 THEN NULL WHEN 1 THEN [] WHEN 2 THEN [NULL, i, NULL] ELSE range(0, i % 9)::INTEGER[] END AS li,
  CASE i % 5 WHEN 0 THEN NULL WHEN 1 THEN [[]] WHEN 2 THEN [NULL, ['a', NULL]] ELSE [['x' || i, 'y'], [], ['z']] END AS lls,
  CASE WHEN i % 8 = 0 THEN NULL ELSE {'a': i, 'b': CASE WHEN i % 3 = 0 THEN NULL ELSE 'b' || i END, 'c': {'d': i * 0.5}} END AS st,
  CASE i % 4 WHEN 0 THEN NULL WHEN 1 THEN MAP {} ELSE MAP {'k' || i: i, 'zz': NULL} END AS mp,
  CASE WHEN i % 5 = 0 THEN NULL ELSE [{'x': i * 1.5, 'y': 'e' || i}, NULL] END AS lst
FROM range(${N}) t(i)`;
await conn.run(BASE);

const cols = (await conn.runAndReadAll(`SELECT * FROM base LIMIT 0`)).columnNames();
const NOT_NULL = ['id', 'b', 'i32_alt', 'i64_seq', 'f64_req', 'lowcard'];
// base_req: the same with NOT NULL columns, which DuckDB writes REQUIRED.
await conn.run(`CREATE TABLE base_req (id INTEGER NOT NULL, b BOOLEAN NOT NULL, i32_alt INTEGER NOT NULL,
  i64_seq BIGINT NOT NULL, f64_req DOUBLE NOT NULL, lowcard VARCHAR NOT NULL, s VARCHAR, li INTEGER[])`);
await conn.run(`INSERT INTO base_req SELECT id, b, i32_alt, i64_seq, f64_req, lowcard, s, li FROM base`);

const written = [];

async function duck(name, select, opts) {
  const dir = path.join(out, 'duckdb');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name + '.parquet');
  await conn.run(`COPY (${select}) TO '${file}' (FORMAT parquet${opts ? ', ' + opts : ''})`);
  written.push({ writer: 'duckdb', file, desc: opts || 'defaults' });
}

const ALL = `SELECT * FROM base ORDER BY id`;
// DuckDB's options that change the bytes.
await duck('default', ALL);
for (const c of ['uncompressed', 'gzip', 'zstd', 'brotli', 'lz4_raw']) {
  // snappy is the default; lz4 writes the same bytes as lz4_raw.
  await duck(`codec_${c}`, ALL, `COMPRESSION ${c}`);
}
await duck('zstd_level_22', ALL, `COMPRESSION zstd, COMPRESSION_LEVEL 22`);
await duck('v2', ALL, `PARQUET_VERSION V2`);
await duck('v2_zstd', ALL, `PARQUET_VERSION V2, COMPRESSION zstd`);
await duck('v2_uncompressed', ALL, `PARQUET_VERSION V2, COMPRESSION uncompressed`);
await duck('v2_no_dict', ALL, `PARQUET_VERSION V2, DICTIONARY_SIZE_LIMIT 0`);
await duck('v2_int32_extremes', `SELECT id, i32, i32_alt, oi32, i64, i64_alt, i64_seq, i8, i16, u8, u16, u32, u64 FROM base ORDER BY id`, `PARQUET_VERSION V2`);
await duck('v2_int32_alt_only', `SELECT i32_alt FROM base ORDER BY id`, `PARQUET_VERSION V2, COMPRESSION uncompressed`);
await duck('v2_floats_bss', `SELECT id, f32, f64, f64_req FROM base ORDER BY id`, `PARQUET_VERSION V2`);
await duck('v2_strings', `SELECT id, s, lowcard, highcard, bl, en FROM base ORDER BY id`, `PARQUET_VERSION V2, DICTIONARY_SIZE_LIMIT 0`);
await duck('dict_fallback', `SELECT id, highcard, s, bl, i64, f64 FROM base ORDER BY id`, `DICTIONARY_SIZE_LIMIT 1000`);
await duck('dict_fallback_v2', `SELECT id, highcard, s, bl, i64, f64 FROM base ORDER BY id`, `DICTIONARY_SIZE_LIMIT 1000, PARQUET_VERSION V2`);
await duck('no_dict', ALL, `DICTIONARY_SIZE_LIMIT 0`);
await duck('no_bloom', ALL, `WRITE_BLOOM_FILTER false`);
await duck('required', `SELECT * FROM base_req ORDER BY id`);
await duck('required_v2', `SELECT * FROM base_req ORDER BY id`, `PARQUET_VERSION V2`);
await duck('nested', `SELECT id, li, lls, st, mp, lst FROM base ORDER BY id`);
await duck('nested_v2', `SELECT id, li, lls, st, mp, lst FROM base ORDER BY id`, `PARQUET_VERSION V2`);
await duck('deep', `SELECT id, [[[id, NULL], []], NULL, [[id * 2]]] AS l3, {'m': MAP {id::VARCHAR: [st]}, 'n': [mp]} AS sm FROM base ORDER BY id`);
await duck('all_null', `SELECT NULL::INTEGER AS n32, NULL::VARCHAR AS ns, NULL::INTEGER[] AS nl, NULL::STRUCT(a INT) AS nst FROM range(${N})`);
await duck('no_null', `SELECT id, b, i32_alt, i64_seq, f64_req, lowcard, highcard, uu FROM base ORDER BY id`);
await duck('empty', `SELECT * FROM base WHERE false`);
await duck('one_row', `SELECT * FROM base WHERE id = 5`);
const RG = `SELECT i::BIGINT AS v, md5(i::VARCHAR)[1:8] AS s, CASE WHEN i % 5 = 0 THEN NULL ELSE i % 1000 END AS n,
  CASE WHEN i % 7 = 0 THEN NULL ELSE [i, NULL] END AS li FROM range(9000) t(i)`;
await duck('row_groups', RG, `ROW_GROUP_SIZE 2048`);
await duck('row_groups_v2', RG, `ROW_GROUP_SIZE 2048, PARQUET_VERSION V2`);
await duck('runs', `SELECT (i // 1000)::INTEGER AS r, CASE WHEN (i // 777) % 2 = 0 THEN NULL ELSE i END AS rn, (i // 100) % 2 = 0 AS rb FROM range(8000) t(i)`);

// The source of the arrow-rs and Polars files: the same rows, read by each
// writer's own reader from a plain DuckDB file.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pqcodec-foreign-'));
const src = path.join(tmp, 'src.parquet');
await conn.run(`COPY (SELECT * EXCLUDE (en, ts_s, tm) FROM base ORDER BY id) TO '${src}' (FORMAT parquet, COMPRESSION uncompressed)`);
const srcBytes = new Uint8Array(fs.readFileSync(src));

// arrow-rs through parquet-wasm: every WriterProperties setting.
{
  const dir = path.join(out, 'arrow-rs');
  fs.mkdirSync(dir, { recursive: true });
  const C = pw.Compression, E = pw.Encoding, S = pw.EnabledStatistics, V = pw.WriterVersion;
  const ints = ['id', 'i32', 'i32_alt', 'oi32', 'i64', 'i64_alt', 'i64_seq', 'i8', 'i16', 'u8', 'u16', 'u32', 'u64', 'd4', 'd9', 'd18', 'dt', 'ts', 'ts_ms', 'ts_ns', 'tstz', 'allnull'];
  const floats = ['f32', 'f64', 'f64_req'];
  const strings = ['s', 'lowcard', 'highcard', 'bl'];
  const variants = [
    ['default', 'defaults (uncompressed, dictionary, writer version 1)'],
    ...['GZIP', 'SNAPPY', 'BROTLI', 'LZ4', 'ZSTD', 'LZ4_RAW'].map((c) => [`codec_${c.toLowerCase()}`, `compression ${c}`, (b) => b.setCompression(C[c])]),
    ['v2', 'writer version 2', (b) => b.setWriterVersion(V.V2)],
    ['v2_zstd', 'writer version 2, zstd', (b) => b.setWriterVersion(V.V2).setCompression(C.ZSTD)],
    ['no_dict', 'dictionary off', (b) => b.setDictionaryEnabled(false)],
    ['v2_no_dict', 'writer version 2, dictionary off', (b) => b.setWriterVersion(V.V2).setDictionaryEnabled(false)],
    ['dict_fallback', 'dictionary page limit 1 KiB', (b) => b.setDictionaryPageSizeLimit(1024)],
    ['dict_fallback_v2', 'writer version 2, dictionary page limit 1 KiB', (b) => b.setWriterVersion(V.V2).setDictionaryPageSizeLimit(1024)],
    ['delta', 'dictionary off; DELTA_BINARY_PACKED ints, DELTA_BYTE_ARRAY strings, BYTE_STREAM_SPLIT floats', (b) => {
      b = b.setDictionaryEnabled(false);
      for (const c of ints) b = b.setColumnEncoding(c, E.DELTA_BINARY_PACKED);
      for (const c of strings) b = b.setColumnEncoding(c, E.DELTA_BYTE_ARRAY);
      for (const c of floats) b = b.setColumnEncoding(c, E.BYTE_STREAM_SPLIT);
      return b.setColumnEncoding('b', E.RLE).setColumnEncoding('ob', E.RLE);
    }],
    ['delta_length', 'dictionary off; DELTA_LENGTH_BYTE_ARRAY strings; BYTE_STREAM_SPLIT ints and FIXED_LEN_BYTE_ARRAY', (b) => {
      b = b.setDictionaryEnabled(false).setWriterVersion(V.V2);
      for (const c of strings) b = b.setColumnEncoding(c, E.DELTA_LENGTH_BYTE_ARRAY);
      for (const c of ['i32', 'i64', 'oi32', 'd38', 'uu']) b = b.setColumnEncoding(c, E.BYTE_STREAM_SPLIT);
      return b;
    }],
    ['small_pages', 'data page limit 512 B, write batch 64, row groups of 700', (b) => b.setDataPageSizeLimit(512).setWriteBatchSize(64).setMaxRowGroupSize(700)],
    ['small_pages_v2', 'writer version 2, data page limit 512 B, write batch 64, row groups of 700', (b) => b.setWriterVersion(V.V2).setDataPageSizeLimit(512).setWriteBatchSize(64).setMaxRowGroupSize(700)],
    ['no_stats', 'statistics off', (b) => b.setStatisticsEnabled(S.None)],
    ['chunk_stats', 'chunk statistics only', (b) => b.setStatisticsEnabled(S.Chunk)],
  ];
  for (const [name, desc, f] of variants) {
    let b = new pw.WriterPropertiesBuilder().setCreatedBy('parquet-rs (parquet-wasm 0.8.0)');
    if (f) b = f(b);
    const table = pw.readParquet(srcBytes);
    const bytes = pw.writeParquet(table, b.build());
    const file = path.join(dir, name + '.parquet');
    fs.writeFileSync(file, bytes);
    written.push({ writer: 'arrow-rs', file, desc: desc || 'defaults' });
  }
  // No rows at all.
  const file = path.join(dir, 'empty.parquet');
  const emptyTable = pw.readParquet(new Uint8Array(fs.readFileSync(path.join(out, 'duckdb', 'empty.parquet'))));
  fs.writeFileSync(file, pw.writeParquet(emptyTable, new pw.WriterPropertiesBuilder().setCreatedBy('parquet-rs (parquet-wasm 0.8.0)').build()));
  written.push({ writer: 'arrow-rs', file, desc: 'no rows', group: 'empty' });
}

// Polars: compression is its one writer option here.
{
  const dir = path.join(out, 'polars');
  fs.mkdirSync(dir, { recursive: true });
  const df = pl.readParquet(src);
  for (const c of ['uncompressed', 'snappy', 'gzip', 'lz4', 'zstd', 'brotli']) {
    const file = path.join(dir, `codec_${c}.parquet`);
    df.writeParquet(file, { compression: c });
    written.push({ writer: 'polars', file, desc: `compression ${c}` });
  }
  // The lazy sink has the options writeParquet lacks.
  for (const [name, desc, opts] of [
    ['sink_small_pages', 'sinkParquet: row groups of 300, data pages of 1 KiB, snappy', { compression: 'snappy', rowGroupSize: 300, dataPagesizeLimit: 1024 }],
    ['sink_no_stats', 'sinkParquet: statistics off, uncompressed', { compression: 'uncompressed', statistics: false }],
    ['sink_zstd_22', 'sinkParquet: zstd level 22, full statistics', { compression: 'zstd', compressionLevel: 22, statistics: 'full' }],
  ]) {
    const file = path.join(dir, name + '.parquet');
    df.lazy().sinkParquet(file, opts).collectSync();
    written.push({ writer: 'polars', file, desc });
  }
  const empty = path.join(dir, 'empty.parquet');
  df.head(0).writeParquet(empty, { compression: 'zstd' });
  written.push({ writer: 'polars', file: empty, desc: 'no rows, zstd', group: 'empty' });
  const nested = pl.readParquet(path.join(out, 'duckdb', 'nested.parquet'));
  const file = path.join(dir, 'nested.parquet');
  nested.writeParquet(file, { compression: 'zstd' });
  written.push({ writer: 'polars', file, desc: 'lists, lists of lists, structs, maps (as lists of structs), zstd', group: 'nested' });
}
fs.rmSync(tmp, { recursive: true });

// hyparquet-writer: its options (codec SNAPPY or none without extra
// compressors, page and row group sizes, dictionary cap, statistics) and the
// encodings it can be asked for per column.
{
  const dir = path.join(out, 'hyparquet');
  fs.mkdirSync(dir, { recursive: true });
  const r = (await conn.runAndReadAll(`SELECT id, b, ob, i32, oi32, i64, f32, f64, s, lowcard, highcard, bl, uu::VARCHAR AS uu, epoch_ms(ts_ms) AS ts FROM base ORDER BY id`)).getRowsJS();
  const col = (k) => r.map((row) => row[k]);
  const uuidBytes = (u) => (u === null ? null : Uint8Array.from(Buffer.from(u.replaceAll('-', ''), 'hex')));
  const columns = (enc = {}) => [
    { name: 'id', data: col(0), type: 'INT32', encoding: enc.int },
    { name: 'b', data: col(1), type: 'BOOLEAN', encoding: enc.bool },
    { name: 'ob', data: col(2), type: 'BOOLEAN', nullable: true, encoding: enc.bool },
    { name: 'i32', data: col(3), type: 'INT32', encoding: enc.int },
    { name: 'oi32', data: col(4), type: 'INT32', nullable: true, encoding: enc.int },
    { name: 'i64', data: col(5), type: 'INT64', encoding: enc.int },
    { name: 'f32', data: col(6), type: 'FLOAT', nullable: true, encoding: enc.float },
    { name: 'f64', data: col(7), type: 'DOUBLE', encoding: enc.float },
    { name: 's', data: col(8), type: 'STRING', nullable: true, encoding: enc.bytes },
    { name: 'lowcard', data: col(9), type: 'STRING', encoding: enc.bytes },
    { name: 'highcard', data: col(10), type: 'STRING', encoding: enc.bytes },
    { name: 'bl', data: col(11).map((v) => (v === null ? null : Uint8Array.from(v))), type: 'BYTE_ARRAY', nullable: true, encoding: enc.bytes },
    { name: 'uu', data: col(12).map(uuidBytes), type: 'UUID' },
    { name: 'ts', data: col(13).map((v) => (v === null ? null : new Date(Number(v)))), type: 'TIMESTAMP', nullable: true, encoding: enc.int },
  ].map((c) => { if (c.encoding === undefined) delete c.encoding; return c; });
  const variants = [
    ['default', 'defaults (snappy, dictionary where it halves the size, statistics)', {}],
    ['uncompressed', 'codec UNCOMPRESSED', { codec: 'UNCOMPRESSED' }],
    ['no_stats', 'statistics off', { statistics: false }],
    ['small_pages', 'pages of 1 KiB, row groups of 400', { pageSize: 1024, rowGroupSize: 400 }],
    ['dict_fallback', 'dictionaries capped at 1000 bytes', { dictionarySize: 1000 }],
    ['delta', 'DELTA_BINARY_PACKED ints, DELTA_BYTE_ARRAY byte arrays, BYTE_STREAM_SPLIT floats, RLE booleans', {},
      { int: 'DELTA_BINARY_PACKED', bytes: 'DELTA_BYTE_ARRAY', float: 'BYTE_STREAM_SPLIT', bool: 'RLE' }],
    ['delta_length', 'DELTA_LENGTH_BYTE_ARRAY byte arrays, PLAIN ints and floats, small pages', { pageSize: 1024 },
      { int: 'PLAIN', bytes: 'DELTA_LENGTH_BYTE_ARRAY', float: 'PLAIN', bool: 'PLAIN' }],
  ];
  for (const [name, desc, opts, enc] of variants) {
    const file = path.join(dir, name + '.parquet');
    const buf = hw.parquetWriteBuffer({ columnData: columns(enc), createdBy: 'hyparquet-writer 0.17.0', ...opts });
    fs.writeFileSync(file, Buffer.from(buf));
    written.push({ writer: 'hyparquet', file, desc });
  }
  const file = path.join(dir, 'empty.parquet');
  fs.writeFileSync(file, Buffer.from(hw.parquetWriteBuffer({
    columnData: [{ name: 'id', data: [], type: 'INT32' }, { name: 's', data: [], type: 'STRING' }], createdBy: 'hyparquet-writer 0.17.0' })));
  written.push({ writer: 'hyparquet', file, desc: 'no rows', group: 'empty' });
}

// Expected rows. DuckDB renders every file (render.mjs). For DuckDB's files
// it is the writer's own reader. For arrow-rs and Polars the writer's own
// reader must give the same table for every file of one source (compared
// as Arrow IPC bytes, or with DataFrame.frameEqual), so DuckDB's rows of one
// file are the rows of all; a file DuckDB cannot read (arrow-rs LZ4) takes
// the rows of its group. The Go writers' files come with the rows of their
// own reader (interop/cmd/foreigngen); DuckDB's rows must match them.
const notes = [];
// norm writes a value of an apache-arrow row without losing NaN, -0,
// bigints or bytes.
function norm(v) {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'bigint': return v.toString() + 'n';
    case 'number': return Object.is(v, -0) ? '-0' : String(v);
    case 'string': return JSON.stringify(v);
    case 'boolean': return String(v);
  }
  if (v instanceof Uint8Array) return 'x' + Buffer.from(v).toString('hex');
  if (v instanceof Date) return 'D' + v.getTime();
  if (typeof v.toArray === 'function' && v.type) return '[' + [...v].map(norm).join(',') + ']';
  if (typeof v[Symbol.iterator] === 'function' && !(v instanceof Map)) return '[' + [...v].map(norm).join(',') + ']';
  if (v instanceof Map) return '{' + [...v].map(([k, x]) => norm(k) + ':' + norm(x)).join(',') + '}';
  return '{' + Object.entries(v.toJSON ? v.toJSON() : v).map(([k, x]) => JSON.stringify(k) + ':' + norm(x)).join(',') + '}';
}
// ownKey is what the writer's own reader gives for a file, written
// losslessly: the rows of the Arrow table (arrow-rs) or of hyparquet's
// objects.
const ownKey = async (w) => {
  if (w.writer === 'hyparquet') {
    const b = fs.readFileSync(w.file);
    const rows = await hq.parquetReadObjects({ file: b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) });
    return rows.map((r) => norm(r)).join('\n');
  }
  const t = arrow.tableFromIPC(pw.readParquet(new Uint8Array(fs.readFileSync(w.file))).intoIPCStream());
  const names = t.schema.fields.map((f) => f.name);
  const cols = names.map((_, i) => t.getChildAt(i));
  let out = names.join(',') + '\n';
  for (let r = 0; r < t.numRows; r++) out += cols.map((c) => norm(c.get(r))).join(',') + '\n';
  return out;
};
const groups = new Map(); // writer/group -> {key, rows}
for (const w of written) {
  let rows = null;
  try {
    rows = await renderFile(conn, w.file);
  } catch (e) {
    w.duckErr = e.message.split('\n')[0].replaceAll(out + path.sep, '');
  }
  if (w.writer === 'duckdb') {
    if (rows === null) throw new Error(`DuckDB cannot read its own ${w.file}: ${w.duckErr}`);
    w.rows = rows;
    continue;
  }
  const g = `${w.writer}/${w.group || 'base'}`;
  let ref = groups.get(g);
  if (w.writer === 'polars') {
    const df = pl.readParquet(w.file);
    if (!ref) groups.set(g, ref = { df, rows: null });
    else if (!df.frameEqual(ref.df, true)) throw new Error(`Polars reads ${w.file} differently from the first file of its group`);
  } else {
    const key = await ownKey(w);
    if (!ref) groups.set(g, ref = { key, rows: null });
    else if (key !== ref.key) throw new Error(`${w.writer} reads ${w.file} differently from the first file of its group`);
  }
  if (rows !== null) {
    if (ref.rows === null) ref.rows = rows;
    else if (rows !== ref.rows) throw new Error(`DuckDB reads ${w.file} differently from the rest of its group`);
  }
  w.ref = ref;
}
for (const w of written) {
  if (w.ref) {
    if (w.ref.rows === null) throw new Error(`no reader gives rows for ${w.file}`);
    w.rows = w.ref.rows;
    if (w.duckErr) notes.push(`${w.writer}/${path.basename(w.file)}: DuckDB: ${w.duckErr}; rows from the writer's own reader (identical table to the rest of its group)`);
  }
}

// The Go writers' files: DuckDB cross-checks the rows of their own reader.
for (const writer of ['parquet-go', 'arrow-go']) {
  const dir = path.join(out, writer);
  if (!fs.existsSync(dir)) continue;
  // default first: a file its writer cannot read back takes the rows of
  // default.parquet when DuckDB reads the two alike.
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.parquet')).sort((a, b) =>
    (a === 'default.parquet' ? '' : a) < (b === 'default.parquet' ? '' : b) ? -1 : 1);
  let dflt = null;
  for (const f of files) {
    const file = path.join(dir, f);
    const ownFile = file.replace(/\.parquet$/, '.jsonl');
    const own = fs.existsSync(ownFile) ? fs.readFileSync(ownFile, 'utf8') : null;
    const desc = fs.readFileSync(file.replace(/\.parquet$/, '.txt'), 'utf8').trim();
    fs.rmSync(ownFile, { force: true });
    fs.rmSync(file.replace(/\.parquet$/, '.txt'));
    const w = { writer, file, desc, rows: own };
    written.push(w);
    let rows = null;
    try {
      rows = await renderFile(conn, file);
    } catch (e) {
      notes.push(`${writer}/${f}: DuckDB: ${e.message.split('\n')[0].replaceAll(out + path.sep, '')}`);
    }
    if (f === 'default.parquet') dflt = { own, rows };
    if (own === null) {
      const errFile = file.replace(/\.parquet$/, '.ownerr');
      // The error itself varies from run to run (foreigngen prints it):
      // only its presence is noted, so that the corpus stays reproducible.
      fs.rmSync(errFile);
      if (rows === null || !dflt || dflt.own === null || rows !== dflt.rows) throw new Error(`no reader gives rows for ${file}`);
      w.rows = dflt.own;
      notes.push(`${writer}/${f}: ${writer} cannot read its own file (an error that varies from run to run); DuckDB reads it as it reads default.parquet, whose rows it takes`);
    } else if (rows !== null && rows !== own) {
      notes.push(`${writer}/${f}: DuckDB disagrees with ${writer}: ${diffRows(own, rows)}`);
    }
  }
}

// diffRows names the columns where two renderings of the same rows differ,
// with the number of rows and the first example.
function diffRows(a, b) {
  const ra = a.split('\n'), rb = b.split('\n');
  if (ra.length !== rb.length) return `${ra.length - 1} rows against ${rb.length - 1}`;
  const cols = new Map();
  for (let i = 0; i < ra.length; i++) {
    if (ra[i] === rb[i]) continue;
    // Split the two objects into top-level members with JSON.parse only to
    // find the keys; values are compared as the text each side wrote.
    const ka = Object.keys(JSON.parse(ra[i]));
    for (const k of ka) {
      const va = member(ra[i], k, ka), vb = member(rb[i], k, ka);
      if (va === vb) continue;
      if (!cols.has(k)) cols.set(k, { n: 0, row: i, va, vb });
      cols.get(k).n++;
    }
  }
  return [...cols].map(([k, c]) => `column ${k}: ${c.n} rows, first row ${c.row}: ${c.va} vs ${c.vb}`).join('; ');
}

// member returns the JSON text of top-level member k of object text s,
// whose members are keys in order: each key is looked for after the one
// before it (a diagnostic; a nested key named as the next top-level one
// can mislead it).
function member(s, k, keys) {
  let from = 0;
  for (let j = 0; j <= keys.indexOf(k); j++) from = s.indexOf((j === 0 ? '{' : ',') + JSON.stringify(keys[j]) + ':', from) + 1;
  const i = keys.indexOf(k);
  const next = i + 1 < keys.length ? s.indexOf(',' + JSON.stringify(keys[i + 1]) + ':', from) : s.length - 1;
  return s.slice(from + JSON.stringify(k).length + 1, next);
}

// Write the rows, one file per distinct set of rows, and a MANIFEST.tsv per
// writer: parquet file, rows file, options.
const byWriter = new Map();
for (const w of written) {
  if (!byWriter.has(w.writer)) byWriter.set(w.writer, []);
  byWriter.get(w.writer).push(w);
}
for (const [writer, ws] of byWriter) {
  const dir = path.join(out, writer);
  for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl'))) fs.rmSync(path.join(dir, f));
  const rank = (w) => (path.basename(w.file) === 'default.parquet' ? '' : path.basename(w.file));
  ws.sort((a, b) => (rank(a) < rank(b) ? -1 : 1));
  const rowsFile = new Map();
  let manifest = '# file\trows\toptions\n';
  for (const w of ws) {
    const base = path.basename(w.file, '.parquet');
    if (!rowsFile.has(w.rows)) {
      // A set of rows is named after its first file, default first.
      rowsFile.set(w.rows, base + '.jsonl');
      fs.writeFileSync(path.join(dir, base + '.jsonl'), w.rows);
    }
    manifest += `${base}.parquet\t${rowsFile.get(w.rows)}\t${w.desc}\n`;
  }
  fs.writeFileSync(path.join(dir, 'MANIFEST.tsv'), manifest);
  console.log(`${writer}: ${ws.length} files, ${rowsFile.size} distinct row sets`);
}
fs.writeFileSync(path.join(out, 'CROSSCHECK.txt'),
  `# Where the second reader (DuckDB) could not read a file or disagreed with the writer's own reader.
# Known causes, none a writer bug (the physical values pqcodec prints match the source data):
# - DuckDB reads INT96 and parquet-go's TIMESTAMP(NANOS, UTC) with microsecond precision: the
#   writer's own reader keeps the nanoseconds of the source data.
# - A Float16 NaN keeps its payload in the file (arrow-go writes random half bit patterns);
#   DuckDB reads halves as FLOAT, so render.mjs can only write the canonical NaN 0x7e00.
# - DuckDB 1.5 reads BYTE_STREAM_SPLIT only for FLOAT and DOUBLE, and not the legacy
#   (Hadoop-framed) LZ4 codec.
` +
  (notes.length ? notes.join('\n') + '\n' : 'none\n'));
console.log(notes.join('\n'));
