// The readers that read each file pqcodec's writer wrote (writers/pqcodec.mjs),
// besides DuckDB and `pqcodec cat --raw` (whose limits KNOWN lists for
// readback.mjs): arrow-rs (parquet-wasm), Polars
// (nodejs-polars), hyparquet (with hyparquet-compressors), arrow-go and
// parquet-go (the gowriter program's read modes).
//
// Each reader returns the file's rows as arrays of top-level values in the
// shape of the generated table (gen.mjs), so render.mjs renders them under the
// file's schema exactly as it renders the generated table, and the two
// renderings are compared: the generated table is the truth. A reader's
// own limits (a codec it lacks, a type it cannot read) are listed in KNOWN
// and counted as refused, by the error the reader gives; any other error or
// difference is a mismatch.
import * as A from 'apache-arrow';
import pl from 'nodejs-polars';
import { parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { createRequire } from 'node:module';
import { SourceTime, ReaderNumber } from './render.mjs';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

// KNOWN lists, per reader, the errors that are the reader's own limits:
// [pattern of the error, reason, and where the error names no column, a test
// that the file's options (writers/pqcodec.mjs) have what the reader lacks].
// A refusal is counted, never compared.
export const KNOWN = {
  // readback.mjs reads with DuckDB too (make reencode-check).
  duckdb: [
    // Encodings.md allows BYTE_STREAM_SPLIT on INT32, INT64 and
    // FIXED_LEN_BYTE_ARRAY since parquet-format 2.11; arrow-rs, arrow-go and
    // pqcodec read it there.
    [/BYTE_STREAM_SPLIT encoding is only supported for FLOAT or DOUBLE data/, 'DuckDB 1.5.6 reads BYTE_STREAM_SPLIT only on FLOAT and DOUBLE',
      (o) => flbaWith(o, ['BYTE_STREAM_SPLIT']) || o.leaves.some((l) => ['INT32', 'INT64'].includes(l.type) && o.columns[l.path]?.encoding === 'BYTE_STREAM_SPLIT')],
  ],
  'arrow-rs': [
    [/LZO|lzo/, 'parquet-wasm 0.8 has no LZO codec'],
    [/Maximum call stack|RangeError|unreachable/, 'parquet-wasm 0.8 overflows its stack'],
  ],
  polars: [
    [/LZO|lzo/i, 'Polars has no LZO codec'],
    [/Not yet supported: Decoding FixedLenByteArray\(\d+\) "(ByteStreamSplit|DeltaByteArray)"-encoded/, 'Polars 0.25 cannot decode BYTE_STREAM_SPLIT or DELTA_BYTE_ARRAY on FIXED_LEN_BYTE_ARRAY',
      (o) => flbaWith(o, ['BYTE_STREAM_SPLIT', 'DELTA_BYTE_ARRAY'])],
    [/can't decode Decimal128 type from Fixed Size Byte Array of len (1[7-9]|[2-9]\d)\b/, 'Polars 0.25 reads no DECIMAL in a FIXED_LEN_BYTE_ARRAY over 16 bytes'],
    // A required integer in a nullable struct whose chunk starts with
    // dictionary pages and falls back to BYTE_STREAM_SPLIT or
    // DELTA_BINARY_PACKED (PLAIN is read; a top-level optional column is
    // read): a panic in polars-parquet 0.54.4 primitive/integer.rs.
    [/validity mask length must match the number of values/, 'Polars 0.25 panics on a nested integer chunk of dictionary pages then BYTE_STREAM_SPLIT or DELTA_BINARY_PACKED pages',
      (o) => o.leaves.some((l) => ['BYTE_STREAM_SPLIT', 'DELTA_BINARY_PACKED'].includes(o.columns[l.path]?.encoding))],
    // A UUID column read through Arrow is arrow-go's arrow.uuid extension,
    // which a stored ARROW:schema names; pqarrow.WriteTable's copy of the
    // same table (WithStoreSchema) is refused with the same error.
    [/Extension\(ExtensionType \{ name: "arrow\.uuid"/, 'Polars 0.25 cannot read the arrow.uuid extension type a stored ARROW:schema names (pqarrow\'s copies likewise)'],
  ],
  hyparquet: [
    [/unsupported compression codec: LZO/, 'hyparquet-compressors 1.1.2 has no LZO (its README says it has)'],
    // An empty page body compresses to the LZ4 block 00 (a last sequence of
    // no literals: what liblz4 writes for no input, which liblz4, arrow-rs
    // and DuckDB decode); lz4basic then reads a match offset past the end.
    [/lz4 offset out of range 0/, 'hyparquet-compressors 1.1.2 cannot decode the LZ4 block of an empty page',
      (o, info) => (codecs(o).has('LZ4_RAW') || codecs(o).has('LZ4')) && info.emptyPages > 0],
  ],
  'arrow-go': [
    [/LZO|lzo/i, 'arrow-go has no LZO codec'],
    [/compression for LZ4 unimplemented/, 'arrow-go has no Hadoop LZ4 codec', (o) => codecs(o).has('LZ4')],
    [/length of byte array passed to bigEndianToDecimal128 was (1[7-9]|[2-9]\d) but must be between 1 and 16/, 'arrow-go v18.8 reads no DECIMAL in a FIXED_LEN_BYTE_ARRAY over 16 bytes'],
    [/panic while reading: unimplemented encoding type/, 'arrow-go v18.8 has no DELTA_BYTE_ARRAY for FIXED_LEN_BYTE_ARRAY',
      (o) => flbaWith(o, ['DELTA_BYTE_ARRAY'])],
    // compress/brotli.go DecodeWithError: into a destination of length 0 its
    // read loop stops at once, and the check for data past the end reads
    // (0, nil) from andybalholm/brotli, not io.EOF, for any empty stream
    // (libbrotli's 06 and andybalholm's own 3b alike).
    [/brotli: decoded data exceeds destination size 0/, 'arrow-go v18.8 cannot decompress an empty BROTLI page',
      (o, info) => codecs(o).has('BROTLI') && info.emptyPages > 0],
  ],
  'parquet-go': [
    [/unsupported compression codec: (LZO|LZ4)\b/, 'parquet-go v0.32 has no LZO or Hadoop LZ4 codec',
      (o) => codecs(o).has('LZ4') || codecs(o).has('LZO')],
    // parquet-go/parquet-go#608 (fix in PR #609, open): its LZ4 codec
    // decodes into a new buffer when the pooled one is under 3x the
    // compressed size, and Column.decompress keeps the old buffer when the
    // decoded length equals uncompressed_page_size, so the page reads as
    // stale bytes: an error in the levels, or wrong values.
    [/./, 'parquet-go v0.32 drops LZ4_RAW pages its codec decoded into a new buffer (parquet-go#608)',
      (o) => codecs(o).has('LZ4_RAW')],
    // encoding/rle decodeBits broadcasts the byte of an RLE run (01 for
    // true, the value in round-up-to-byte(bit width) bytes as the spec has
    // it) into each byte of the bitmap, so a run of true reads as one true in
    // eight. Its own writer bit-packs booleans, so it reads its own files.
    [/^rows differ$/, 'parquet-go v0.32 reads an RLE run of true BOOLEANs as one true in eight',
      (o) => o.leaves.some((l) => l.type === 'BOOLEAN' && o.columns[l.path]?.encoding === 'RLE')],
  ],
};

// refusal returns the reason why reader's error err (or 'rows differ') on a
// file of options o is the reader's own limit, or ''. Options {any: true}
// (readback.mjs, whose option sets choose encodings per column by index)
// satisfy every test on the options.
export function refusal(reader, err, o, info) {
  for (const [re, why, when] of KNOWN[reader] || []) if (re.test(err) && (!when || o.any || when(o, info))) return why;
  return '';
}

// pageInfo returns what the tests of KNOWN look at in the file at path:
// {emptyPages}, the number of pages with nothing to compress: of
// uncompressed size 0, or v2 pages of only nulls (their levels are not
// compressed, so their values section is compressed from nothing).
export async function pageInfo(ctx, path) {
  const { stdout } = await run(ctx.pqcodec, ['pages', path, '--json'], { maxBuffer: 1 << 30 });
  const empty = (p) => p.uncompressed_size === 0 || (p.type === 'DATA_PAGE_V2' && p.num_nulls === p.num_values);
  return { emptyPages: JSON.parse(stdout).filter(empty).length };
}

// codecs returns the codecs a file of options o uses.
const codecs = (o) => new Set([o.codec, ...Object.values(o.columns).map((c) => c.codec)].filter(Boolean));

// flbaWith tells whether a FIXED_LEN_BYTE_ARRAY column of options o is
// written with one of encodings (falling back to it after a dictionary).
const flbaWith = (o, encodings) => o.leaves.some((l) => l.type === 'FIXED_LEN_BYTE_ARRAY' && encodings.includes(o.columns[l.path]?.encoding));

// arrowValue returns value i of Arrow data d in the generated table's
// shape: numbers, bigints, strings, Uint8Arrays, SourceTimes, arrays,
// objects. Maps come as arrays of [key, value] pairs.
function arrowValue(d, i) {
  if (!d.getValid(i)) return null;
  const t = d.type;
  switch (t.typeId) {
    case A.Type.Dictionary: {
      const k = Number(d.values[i]);
      const dict = d.dictionary.data;
      let base = 0;
      for (const c of dict) {
        if (k < base + c.length) return arrowValue(c, k - base);
        base += c.length;
      }
      throw new Error('dictionary index out of range');
    }
    case A.Type.Int: {
      const v = d.values[i];
      return t.bitWidth === 64 ? BigInt(v) : Number(v);
    }
    case A.Type.Float: {
      if (t.precision === A.Precision.HALF) return A.makeVector(d).get(i);
      return d.values[i];
    }
    case A.Type.Bool: {
      const j = d.offset + i;
      return ((d.values[j >> 3] >> (j & 7)) & 1) === 1;
    }
    case A.Type.Utf8: case A.Type.LargeUtf8: {
      const o = d.valueOffsets;
      return Buffer.from(d.values.subarray(Number(o[i]), Number(o[i + 1]))).toString('utf8');
    }
    case A.Type.Binary: case A.Type.LargeBinary: {
      const o = d.valueOffsets;
      return Uint8Array.from(d.values.subarray(Number(o[i]), Number(o[i + 1])));
    }
    case A.Type.FixedSizeBinary:
      return Uint8Array.from(d.values.subarray(i * t.byteWidth, (i + 1) * t.byteWidth));
    case A.Type.Decimal: {
      const words = t.bitWidth / 32;
      let v = 0n;
      for (let w = words - 1; w >= 0; w--) v = (v << 32n) | BigInt(d.values[i * words + w] >>> 0);
      return BigInt.asIntN(t.bitWidth, v);
    }
    case A.Type.Date: {
      if (t.unit === A.DateUnit.DAY) return d.values[i];
      return Number(BigInt(raw64(d, i)) / 86400000n);
    }
    case A.Type.Timestamp: {
      const unit = { [A.TimeUnit.SECOND]: 's', [A.TimeUnit.MILLISECOND]: 'ms', [A.TimeUnit.MICROSECOND]: 'us', [A.TimeUnit.NANOSECOND]: 'ns' }[t.unit];
      return new SourceTime(unit, raw64(d, i));
    }
    case A.Type.List: case A.Type.LargeList: {
      const o = d.valueOffsets, c = d.children[0], out = [];
      for (let j = Number(o[i]); j < Number(o[i + 1]); j++) out.push(arrowValue(c, j));
      return out;
    }
    case A.Type.Map: {
      const o = d.valueOffsets, e = d.children[0], out = [];
      for (let j = Number(o[i]); j < Number(o[i + 1]); j++) out.push([arrowValue(e.children[0], j), arrowValue(e.children[1], j)]);
      return out;
    }
    case A.Type.Struct: {
      const out = {};
      t.children.forEach((f, k) => { out[f.name] = arrowValue(d.children[k], i); });
      return out;
    }
  }
  // Types the generator does not draw (TIME, durations, intervals...),
  // from the corpus files of readback.mjs: Arrow's own getter.
  return A.makeVector(d).get(i);
}

function raw64(d, i) {
  const v = d.values;
  if (v instanceof BigInt64Array || v instanceof BigUint64Array) return BigInt.asIntN(64, BigInt(v[i]));
  return BigInt.asIntN(64, (BigInt(v[2 * i + 1]) << 32n) | BigInt(v[2 * i] >>> 0));
}

// arrowRows turns an Arrow IPC stream into rows of top-level values.
function arrowRows(ipc) {
  const t = A.tableFromIPC(ipc);
  const out = [];
  for (const b of t.batches) {
    const cols = b.data.children;
    for (let i = 0; i < b.numRows; i++) out.push(cols.map((c) => arrowValue(c, i)));
  }
  return out;
}

// normalize fits value v of a reader to generated type t: maps given as
// lists of {key, value} structs become [key, value] pairs.
export function normalize(t, v) {
  if (v === null || v === undefined) return null;
  switch (t.kind) {
    case 'list': return v.map((x) => normalize(t.elem, x));
    case 'map': return v.map((e) => {
      const [k, x] = Array.isArray(e) ? e : Object.values(e);
      return [normalize(t.key, k), normalize(t.value, x)];
    });
    case 'struct': return Object.fromEntries(t.fields.map((f) => [f.name, normalize(f.type, v[f.name])]));
    default: return v;
  }
}

let PW = null;
function parquetWasm() {
  if (!PW) {
    const p = require.resolve('parquet-wasm');
    delete require.cache[p];
    PW = require(p);
  }
  return PW;
}

async function readArrowRs(path) {
  const pw = parquetWasm();
  try {
    const t = pw.readParquet(readFileSync(path));
    return arrowRows(t.intoIPCStream());
  } catch (e) {
    if (e instanceof RangeError || e instanceof WebAssembly.RuntimeError) PW = null;
    throw e;
  }
}

async function readPolars(path) {
  return arrowRows(pl.readParquet(path).writeIPCStream());
}

async function readArrowGo(ctx, path) {
  const out = `${path}.arrowgo.arrows`;
  try {
    await run(ctx.gowriter, ['-read', 'arrow-go', '-in', path, '-out', out], { maxBuffer: 1 << 26 });
    return arrowRows(readFileSync(out));
  } catch (e) {
    throw new Error((e.stderr || e.message).trim());
  } finally {
    rmSync(out, { force: true });
  }
}

// readParquetGo has parquet-go copy the file's rows into a file of its own
// (uncompressed, PLAIN, pages v1), which `pqcodec cat --raw` then reads: what
// parquet-go read is what it wrote, its writer being checked by the
// difftest of parquet-go as a writer.
async function readParquetGo(ctx, path) {
  const out = `${path}.parquetgo.parquet`;
  try {
    await run(ctx.gowriter, ['-read', 'parquet-go', '-in', path, '-out', out], { maxBuffer: 1 << 26 });
    const { stdout } = await run(ctx.pqcodec, ['cat', '--raw', out], { maxBuffer: 1 << 30 });
    return { rendered: stdout === '' ? [] : stdout.replace(/\n$/, '').split('\n') };
  } catch (e) {
    throw new Error((e.stderr || e.message).trim());
  } finally {
    rmSync(out, { force: true });
  }
}

// hyparquet's parsers keep the physical values: timestamps as SourceTime,
// dates as days, UUIDs as bytes. Its decimals are JavaScript numbers
// (convert.js, not configurable): see hyparquetSource.
const HYPARQUET_PARSERS = {
  timestampFromMilliseconds: (v) => new SourceTime('ms', BigInt(v)),
  timestampFromMicroseconds: (v) => new SourceTime('us', BigInt(v)),
  timestampFromNanoseconds: (v) => new SourceTime('ns', BigInt(v)),
  dateFromDays: (v) => v,
  stringFromBytes: (b) => b && Buffer.from(b).toString('utf8'),
  uuidFromBytes: (b) => b,
};

async function readHyparquet(path, columns) {
  const b = readFileSync(path);
  const file = b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
  const objs = await parquetReadObjects({ file, compressors, utf8: false, parsers: HYPARQUET_PARSERS });
  return objs.map((o) => columns.map((c) => hyValue(c.type, o[c.name])));
}

// hyValue fits hyparquet's value to type t: decimals become ReaderNumbers,
// maps (objects keyed by the key's text) sorted [key, value] pairs.
function hyValue(t, v) {
  if (v === null || v === undefined) return null;
  switch (t.kind) {
    case 'decimal': return new ReaderNumber(v);
    case 'list': return Array.from(v, (x) => hyValue(t.elem, x));
    case 'struct': return Object.fromEntries(t.fields.map((f) => [f.name, hyValue(f.type, v[f.name])]));
    case 'map': return sortMap(Object.entries(v).map(([k, x]) => [t.key.kind === 'string' ? k : Number(k), hyValue(t.value, x)]));
    default: return v;
  }
}

const sortMap = (pairs) => pairs.sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : String(a[0]) > String(b[0]) ? 1 : 0));

// hyparquetSource is the generated value as hyparquet represents it:
// a decimal as the JavaScript number its unscaled integer divided by
// 10^scale gives (what hyparquet's convert.js computes, from the same
// integer), a map's entries sorted by key (a JavaScript object orders integer
// keys by value).
export function hyparquetSource(t, v) {
  if (v === null || v === undefined) return null;
  switch (t.kind) {
    case 'decimal': return new ReaderNumber(Number(v) / 10 ** t.scale);
    case 'list': return v.map((x) => hyparquetSource(t.elem, x));
    case 'struct': return Object.fromEntries(t.fields.map((f) => [f.name, hyparquetSource(f.type, v[f.name])]));
    case 'map': return sortMap(v.map(([k, x]) => [k, hyparquetSource(t.value, x)]));
    default: return v;
  }
}

// READERS maps a reader's name to a function of (ctx, path, table) that
// returns {rows} (top-level values in the generated table's shape) or
// {rendered} (lines already in `pqcodec cat --raw` form).
export const READERS = {
  'arrow-rs': async (ctx, path) => ({ rows: await readArrowRs(path) }),
  polars: async (ctx, path) => ({ rows: await readPolars(path) }),
  hyparquet: async (ctx, path, table) => ({ rows: await readHyparquet(path, table.columns), hyparquet: true }),
  'arrow-go': async (ctx, path) => ({ rows: await readArrowGo(ctx, path) }),
  'parquet-go': async (ctx, path) => readParquetGo(ctx, path),
};

// canon turns a value of a reader into a form JSON.stringify keeps exactly:
// integers as text, timestamps in nanoseconds, byte arrays in hex, NaN and
// infinities and -0 as text.
function canon(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : Number.isFinite(v) ? v : String(v);
  if (typeof v !== 'object') return v;
  if (v instanceof SourceTime) return `${v.value * ({ s: 1000000000n, ms: 1000000n, us: 1000n, ns: 1n }[v.unit])}ns`;
  if (v instanceof ReaderNumber) return `number ${v.x}`;
  if (v instanceof Date) return `date ${v.getTime()}`;
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
    if (v instanceof Uint8Array) return `hex ${Buffer.from(v).toString('hex')}`;
    return Array.from(v, canon);
  }
  if (Array.isArray(v)) return v.map(canon);
  if (v instanceof Map) return [...v].map(canon);
  if (typeof v.toJSON === 'function') return canon(v.toJSON());
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, canon(x)]));
}

// canonicalRows reads the file at path with reader (arrow-rs, polars or
// hyparquet) and returns its rows as canonical JSON lines, for
// readback.mjs, which compares a reader's reading of a copy with its reading
// of the source.
export async function canonicalRows(reader, path) {
  let rows;
  switch (reader) {
    case 'arrow-rs': rows = await readArrowRs(path); break;
    case 'polars': rows = await readPolars(path); break;
    case 'hyparquet': {
      const b = readFileSync(path);
      const file = b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
      const objs = await parquetReadObjects({ file, compressors, utf8: false, parsers: HYPARQUET_PARSERS });
      rows = objs.map((o) => Object.values(o));
      break;
    }
    default: throw new Error(`no reader ${reader}`);
  }
  return rows.map((r) => JSON.stringify(r.map(canon)));
}
