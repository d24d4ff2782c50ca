// pqcodec's own writer (package rows on package writer), run as the pqwriter
// program: the generated table becomes a Parquet schema (message-type text,
// physical types drawn where the table's type allows several: a decimal as
// INT32, INT64, FIXED_LEN_BYTE_ARRAY or BYTE_ARRAY) and rows in the form
// `pqcodec cat --raw` prints, and the writer options are drawn per case.
import { execFile } from 'node:child_process';
import { writeFileSync, rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { row, sourceValues } from '../render.mjs';

const run = promisify(execFile);

export const caps = {
  leaves: ['bool', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'float', 'double',
    'string', 'binary', 'fixed', 'decimal', 'date', 'ts', 'uuid'],
  nested: ['list', 'struct', 'map'],
  tsUnits: ['ms', 'us', 'ns'],
};

const INT = { int8: [8, true], int16: [16, true], int32: [32, true], uint8: [8, false], uint16: [16, false], uint32: [32, false] };
const TS = { ms: ['MILLIS', 'MilliSeconds'], us: ['MICROS', 'MicroSeconds'], ns: ['NANOS', 'NanoSeconds'] };

// decimalBytes is the fewest bytes of a two's complement integer of the
// given number of decimal digits.
function decimalBytes(p) {
  const max = 10n ** BigInt(p) - 1n;
  let n = 1;
  while ((1n << BigInt(8 * n - 1)) <= max) n++;
  return n;
}

// physical draws the Parquet leaf of generated type t: [text of the
// declaration before the name, annotation text, render node fields].
function physical(r, t) {
  const node = { type: '', typeLength: null, converted: null, logical: '', scale: 0 };
  switch (t.kind) {
    case 'bool': return ['boolean', '', { ...node, type: 'BOOLEAN' }];
    case 'int8': case 'int16': case 'int32': case 'uint8': case 'uint16': case 'uint32': {
      const [bits, signed] = INT[t.kind];
      const ann = t.kind === 'int32' && r.bool(0.5) ? '' : `INTEGER(${bits},${signed})`;
      return ['int32', ann, { ...node, type: 'INT32' }];
    }
    case 'int64': return ['int64', r.bool(0.5) ? '' : 'INTEGER(64,true)', { ...node, type: 'INT64' }];
    case 'uint64': return ['int64', 'INTEGER(64,false)', { ...node, type: 'INT64' }];
    case 'float': return ['float', '', { ...node, type: 'FLOAT' }];
    case 'double': return ['double', '', { ...node, type: 'DOUBLE' }];
    case 'string': return ['binary', r.pick(['STRING', 'UTF8']), { ...node, type: 'BYTE_ARRAY', converted: 'UTF8' }];
    case 'binary': return ['binary', '', { ...node, type: 'BYTE_ARRAY' }];
    case 'fixed': return [`fixed_len_byte_array(${t.len})`, '', { ...node, type: 'FIXED_LEN_BYTE_ARRAY', typeLength: t.len }];
    case 'uuid': return ['fixed_len_byte_array(16)', 'UUID', { ...node, type: 'FIXED_LEN_BYTE_ARRAY', typeLength: 16 }];
    case 'date': return ['int32', 'DATE', { ...node, type: 'INT32' }];
    case 'ts': {
      const [u, name] = TS[t.unit];
      return ['int64', `TIMESTAMP(${u},${r.bool(0.5)})`, { ...node, type: 'INT64', logical: `TimestampType(unit=TimeUnit(${u}=${name}()))` }];
    }
    case 'decimal': {
      const ann = `DECIMAL(${t.precision},${t.scale})`;
      const kinds = [['flba', 2], ['binary', 1]];
      if (t.precision <= 9) kinds.push(['int32', 3]);
      if (t.precision <= 18) kinds.push(['int64', 3]);
      const k = r.wpick(kinds.map(([k, w]) => [w, k]));
      if (k === 'int32') return ['int32', ann, { ...node, type: 'INT32', scale: t.scale }];
      if (k === 'int64') return ['int64', ann, { ...node, type: 'INT64', scale: t.scale }];
      if (k === 'binary') return ['binary', ann, { ...node, type: 'BYTE_ARRAY', scale: t.scale }];
      const n = decimalBytes(t.precision) + r.pick([0, 0, 0, 1, 3]);
      return [`fixed_len_byte_array(${n})`, ann, { ...node, type: 'FIXED_LEN_BYTE_ARRAY', typeLength: n, scale: t.scale }];
    }
  }
  throw new Error(`pqcodec: no leaf for ${t.kind}`);
}

// field returns the schema text of a field and its render node, and adds
// its leaves ({path, type}) to leaves.
function field(r, name, t, path, leaves, rep = t.nullable ? 'optional' : 'required') {
  const repetition = rep.toUpperCase();
  const base = { name, repetition, converted: null, logical: '', scale: 0, type: null, typeLength: null, children: [] };
  switch (t.kind) {
    case 'list': {
      const [et, en] = field(r, 'element', t.elem, `${path}.list.element`, leaves);
      const list = { ...base, name: 'list', repetition: 'REPEATED', children: [en] };
      return [`${rep} group ${name} (LIST) { repeated group list { ${et} } }`, { ...base, converted: 'LIST', children: [list] }];
    }
    case 'map': {
      const [kt, kn] = field(r, 'key', t.key, `${path}.key_value.key`, leaves, 'required');
      const [vt, vn] = field(r, 'value', t.value, `${path}.key_value.value`, leaves);
      const kv = { ...base, name: 'key_value', repetition: 'REPEATED', children: [kn, vn] };
      return [`${rep} group ${name} (MAP) { repeated group key_value { ${kt} ${vt} } }`, { ...base, converted: 'MAP', children: [kv] }];
    }
    case 'struct': {
      const parts = t.fields.map((f) => field(r, f.name, f.type, `${path}.${f.name}`, leaves));
      return [`${rep} group ${name} { ${parts.map((p) => p[0]).join(' ')} }`, { ...base, children: parts.map((p) => p[1]) }];
    }
    default: {
      const [decl, ann, n] = physical(r, t);
      leaves.push({ path, type: n.type });
      return [`${rep} ${decl} ${name}${ann ? ` (${ann})` : ''};`, { ...base, ...n, name, repetition }];
    }
  }
}

// ENCODINGS are the encodings of values not dictionary-encoded that apply
// to each physical type (encoding/doc.go).
const ENCODINGS = {
  BOOLEAN: ['PLAIN', 'RLE'],
  INT32: ['PLAIN', 'DELTA_BINARY_PACKED', 'BYTE_STREAM_SPLIT'],
  INT64: ['PLAIN', 'DELTA_BINARY_PACKED', 'BYTE_STREAM_SPLIT'],
  FLOAT: ['PLAIN', 'BYTE_STREAM_SPLIT'],
  DOUBLE: ['PLAIN', 'BYTE_STREAM_SPLIT'],
  BYTE_ARRAY: ['PLAIN', 'DELTA_LENGTH_BYTE_ARRAY', 'DELTA_BYTE_ARRAY'],
  FIXED_LEN_BYTE_ARRAY: ['PLAIN', 'DELTA_BYTE_ARRAY', 'BYTE_STREAM_SPLIT'],
};

// LEVELS are levels of each codec that has them (codecfactory.WithLevel).
const LEVELS = {
  SNAPPY: [1, 2, 3], GZIP: [1, 6, 9], BROTLI: [0, 4, 11], ZSTD: [-5, 1, 3, 9, 19], LZ4: [0, 1, 9], LZ4_RAW: [0, 1, 9], LZO: [1, 999],
};

function codec(r) {
  const c = r.wpick([[1, 'UNCOMPRESSED'], [2, 'SNAPPY'], [2, 'GZIP'], [1, 'BROTLI'], [1, 'LZ4'], [2, 'LZ4_RAW'], [2, 'ZSTD'], [0.3, 'LZO']]);
  const o = { codec: c };
  if (LEVELS[c] && r.bool(0.5)) o.level = r.pick(LEVELS[c]);
  return o;
}

// options draws the schema and the writer options of one case.
export function options(r, table) {
  const leaves = [];
  const fields = table.columns.map((c) => field(r, c.name, c.type, c.name, leaves));
  const o = {
    schema: `message m { ${fields.map((f) => f[0]).join(' ')} }`,
    ...codec(r),
    version: r.pick([1, 2]),
    dictionary: r.bool(0.6),
    pageSize: r.pick([0, 0, 64, 1024, 8192, 1 << 20]),
    pageRows: r.pick([0, 0, 1, 7, 100, 1000]),
    rowGroupRows: r.pick([0, 0, 1, 10, 1000, 5000]),
    stats: r.bool(0.8),
    pageIndex: r.bool(0.7),
    bloom: r.bool(0.3),
    checksums: r.bool(0.8),
    workers: r.pick([1, 2]),
    batchRows: r.pick([0, 0, 1, 7, 100]),
    columns: {},
  };
  if (o.dictionary && r.bool(0.4)) o.dictionaryLimit = r.pick([1, 64, 1024, 16384]);
  if (r.bool(0.15)) o.rowGroupSize = r.pick([1024, 65536]);
  if (r.bool(0.1)) o.statsTruncate = r.pick([1, 16]);
  for (const l of leaves) {
    const c = {};
    if (r.bool(0.7)) c.encoding = r.pick(ENCODINGS[l.type]);
    if (r.bool(0.15)) Object.assign(c, codec(r));
    if (r.bool(0.1)) c.dictionary = r.bool(0.5);
    if (Object.keys(c).length) o.columns[l.path] = c;
  }
  // The render tree of the schema and its leaves, kept out of the JSON of the options.
  Object.defineProperty(o, 'leaves', { enumerable: false, value: leaves });
  Object.defineProperty(o, 'root', { enumerable: false, value: { name: 'm', repetition: 'REQUIRED', converted: null, logical: '', type: null, typeLength: null, scale: 0, children: fields.map((f) => f[1]) } });
  return o;
}

// write renders the table under the drawn schema and runs pqwriter.
export async function write(ctx, table, o, path) {
  const { schema, ...wopts } = o;
  const root = o.root;
  const lines = [];
  for (let i = 0; i < table.rows; i++) lines.push(row(root, sourceValues(table, i)) + '\n');
  const rowsPath = `${path}.jsonl`;
  writeFileSync(rowsPath, lines.join(''));
  try {
    await run(ctx.pqwriter, ['-schema', schema, '-in', rowsPath, '-out', path, '-options', JSON.stringify(wopts)], { maxBuffer: 1 << 26 });
  } catch (e) {
    throw new Error((e.stderr || e.message).trim());
  } finally {
    rmSync(rowsPath, { force: true });
  }
}
