// Renders Parquet rows as JSON Lines with the rules of `pqcodec cat --raw`
// (package rows, WithRaw): physical values, exact integers, INT96 and
// non-text byte arrays as lowercase hex, floats as the shortest decimal that
// round-trips at their precision (Go's strconv 'g', -1), "NaN", "Infinity",
// "-Infinity" as strings, lists as arrays, maps as arrays of {"key","value"}.
//
// The rows are read by DuckDB; each leaf is turned into an exact form in SQL
// (integers, decimals and timestamps as text, byte arrays as hex) and then
// written according to the physical type the Parquet schema gives it. The
// leaf formats are ../gojson/gojson.mjs, shared with
// scripts/difftest/render.mjs, which differs on purpose: it renders DuckDB's
// JS values (and the generator's source values) in JS instead of exact SQL
// text forms.

import { jsonDecimal, jsonFloat, jsonHex, jsonString } from '../gojson/gojson.mjs';

const HEX = '0123456789abcdef';

// unscaled returns the decimal text s (as DuckDB prints it) times 10^scale.
function unscaled(s, scale) {
  let neg = s.startsWith('-');
  if (neg) s = s.slice(1);
  let [i, f = ''] = s.split('.');
  f = f.padEnd(scale, '0');
  if (f.length > scale) throw new Error(`decimal ${s} has more than ${scale} fraction digits`);
  const v = BigInt(i + f);
  return neg ? -v : v;
}

function isText(leaf) {
  const ct = leaf.converted_type;
  const lt = leaf.logical_type || '';
  return ct === 'UTF8' || ct === 'ENUM' || ct === 'JSON' || lt.startsWith('StringType') ||
    lt.startsWith('EnumType') || lt.startsWith('JSONType');
}

// timeUnit returns 'MILLIS', 'MICROS' or 'NANOS' for a TIME or TIMESTAMP leaf.
function timeUnit(leaf) {
  const lt = leaf.logical_type || '';
  const m = /unit=TimeUnit\(MILLIS=(\S+), MICROS=(\S+), NANOS=(\S+)\)/.exec(lt);
  if (m) return m[1] !== '<null>' ? 'MILLIS' : m[2] !== '<null>' ? 'MICROS' : 'NANOS';
  const ct = leaf.converted_type || '';
  if (ct.endsWith('MILLIS')) return 'MILLIS';
  if (ct.endsWith('MICROS')) return 'MICROS';
  throw new Error(`no time unit in ${JSON.stringify(leaf)}`);
}

const TS_IDS = new Set(['TIMESTAMP', 'TIMESTAMP_S', 'TIMESTAMP_MS', 'TIMESTAMP_NS', 'TIMESTAMP WITH TIME ZONE']);
const INT_IDS = new Set(['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'UTINYINT', 'USMALLINT', 'UINTEGER',
  'UBIGINT', 'HUGEINT', 'UHUGEINT']);

// Type names of @duckdb/node-api types.
function typeName(t) {
  const s = t.toString();
  if (s.startsWith('DECIMAL')) return 'DECIMAL';
  if (s.startsWith('ENUM')) return 'ENUM';
  return s;
}

let lambdaN = 0;

// plan builds the SQL expression that turns expr of DuckDB type t into exact
// forms, and the function that writes its JS value. leaves yields the
// Parquet schema leaves in column order.
function plan(expr, t, leaves) {
  const id = t.typeId;
  // LIST = 24, STRUCT = 25, MAP = 26, ARRAY = 33 in @duckdb/node-api.
  if (t.constructor.name === 'DuckDBListType' || t.constructor.name === 'DuckDBArrayType') {
    const x = `x${lambdaN++}`;
    const el = plan(x, t.valueType, leaves);
    return {
      sql: `list_transform(${expr}, lambda ${x}: ${el.sql})`,
      write: (v) => v === null ? 'null' : '[' + v.map(el.write).join(',') + ']',
    };
  }
  if (t.constructor.name === 'DuckDBMapType') {
    const x = `x${lambdaN++}`;
    const k = plan(`${x}.key`, t.keyType, leaves);
    const val = plan(`${x}.value`, t.valueType, leaves);
    return {
      sql: `list_transform(map_entries(${expr}), lambda ${x}: struct_pack(key := ${k.sql}, value := ${val.sql}))`,
      write: (v) => v === null ? 'null' : '[' + v.map((e) => `{"key":${k.write(e.key)},"value":${val.write(e.value)}}`).join(',') + ']',
    };
  }
  if (t.constructor.name === 'DuckDBStructType') {
    const parts = t.entryNames.map((name, i) => ({ name, p: plan(`${expr}."${name.replaceAll('"', '""')}"`, t.entryTypes[i], leaves) }));
    return {
      sql: `CASE WHEN ${expr} IS NULL THEN NULL ELSE struct_pack(${parts.map(({ name, p }, i) => `f${i} := ${p.sql}`).join(', ')}) END`,
      write: (v) => v === null ? 'null' : '{' + parts.map(({ name, p }, i) => jsonString(name) + ':' + p.write(v['f' + i])).join(',') + '}',
    };
  }
  const leaf = leaves.next().value;
  if (!leaf) throw new Error(`no Parquet leaf for ${expr}`);
  const name = typeName(t);
  const phys = leaf.type;
  let sql = `${expr}`;
  let conv; // JS value (not null) -> JSON text
  if (TS_IDS.has(name)) {
    // epoch_ns overflows outside 1677-2262: only TIMESTAMP_NS uses it.
    const nsType = name === 'TIMESTAMP_NS';
    sql = `CAST(${nsType ? 'epoch_ns' : 'epoch_us'}(${expr}) AS VARCHAR)`;
    const toNs = (s) => (nsType ? BigInt(s) : BigInt(s) * 1000n);
    if (phys === 'INT96') {
      conv = (s) => {
        const ns = toNs(s);
        const day = 86400000000000n;
        let d = ns / day;
        let r = ns % day;
        if (r < 0n) { r += day; d -= 1n; }
        const jd = d + 2440588n;
        let h = '';
        for (let i = 0; i < 8; i++) h += ((r >> BigInt(8 * i)) & 255n).toString(16).padStart(2, '0');
        for (let i = 0; i < 4; i++) h += ((jd >> BigInt(8 * i)) & 255n).toString(16).padStart(2, '0');
        return '"' + h + '"';
      };
    } else {
      const div = { MILLIS: 1000000n, MICROS: 1000n, NANOS: 1n }[timeUnit(leaf)];
      conv = (s) => {
        const ns = toNs(s);
        if (ns % div !== 0n) throw new Error(`timestamp ${s} ns is not whole in its unit`);
        return (ns / div).toString();
      };
    }
  } else if (name === 'TIME' || name === 'TIME_NS') {
    // HH:MM:SS[.fraction], as DuckDB prints it.
    sql = `CAST(${expr} AS VARCHAR)`;
    const div = { MILLIS: 1000000n, MICROS: 1000n, NANOS: 1n }[timeUnit(leaf)];
    conv = (s) => {
      const m = /^(\d+):(\d+):(\d+)(?:\.(\d+))?$/.exec(s);
      if (!m) throw new Error(`time ${s}`);
      const ns = ((BigInt(m[1]) * 60n + BigInt(m[2])) * 60n + BigInt(m[3])) * 1000000000n + BigInt((m[4] || '').padEnd(9, '0'));
      if (ns % div !== 0n) throw new Error(`time ${s} is not whole in its unit`);
      return (ns / div).toString();
    };
  } else if (name === 'DATE') {
    sql = `CAST(${expr} - DATE '1970-01-01' AS VARCHAR)`;
    conv = (s) => s;
  } else if (name === 'DECIMAL' || INT_IDS.has(name)) {
    sql = `CAST(${expr} AS VARCHAR)`;
    const scale = name === 'DECIMAL' ? Number(leaf.scale ?? t.scale) : 0;
    conv = (s) => {
      const v = unscaled(s, scale);
      switch (phys) {
        case 'INT32': return BigInt.asIntN(32, v).toString();
        case 'INT64': return BigInt.asIntN(64, v).toString();
        case 'FIXED_LEN_BYTE_ARRAY': return jsonDecimal(v, Number(leaf.type_length));
        case 'BYTE_ARRAY': return jsonDecimal(v);
        case 'DOUBLE': return jsonFloat(Number(s), 64);
      }
      throw new Error(`integer ${name} in physical ${phys}`);
    };
  } else if (name === 'UUID') {
    sql = `replace(CAST(${expr} AS VARCHAR), '-', '')`;
    conv = (s) => '"' + s + '"';
  } else if (name === 'BLOB') {
    sql = `lower(hex(${expr}))`;
    conv = (s) => '"' + s + '"';
  } else if (name === 'VARCHAR' || name === 'ENUM') {
    sql = `CAST(${expr} AS VARCHAR)`;
    if (phys !== 'BYTE_ARRAY' && phys !== 'FIXED_LEN_BYTE_ARRAY') throw new Error(`string in ${phys}`);
    conv = isText(leaf) ? jsonString : (s) => jsonHex(Buffer.from(s, 'utf8'));
  } else if (name === 'FLOAT' || name === 'DOUBLE') {
    if (phys === 'FLOAT') conv = (v) => jsonFloat(v, 32);
    else if (phys === 'DOUBLE') conv = (v) => jsonFloat(v, 64);
    else if (phys === 'FIXED_LEN_BYTE_ARRAY' && Number(leaf.type_length) === 2) conv = (v) => '"' + half(v) + '"';
    else throw new Error(`float in ${phys}`);
  } else if (name === 'BOOLEAN') {
    conv = (v) => (v ? 'true' : 'false');
  } else {
    throw new Error(`unsupported DuckDB type ${name} of ${expr}`);
  }
  return { sql, write: (v) => (v === null || v === undefined ? 'null' : conv(v)) };
}

// half returns the little-endian hex of the IEEE binary16 value of v (a
// float that a half holds exactly).
function half(v) {
  let bits;
  if (Number.isNaN(v)) bits = 0x7e00;
  else {
    const sign = v < 0 || Object.is(v, -0) ? 0x8000 : 0;
    const a = Math.abs(v);
    if (a === Infinity) bits = sign | 0x7c00;
    else if (a === 0) bits = sign;
    else {
      let e = Math.floor(Math.log2(a));
      if (2 ** e > a) e--;
      if (2 ** (e + 1) <= a) e++;
      if (e < -14) bits = sign | Math.round(a / 2 ** -24);
      else bits = sign | ((e + 15) << 10) | Math.round((a / 2 ** e - 1) * 1024);
    }
  }
  return HEX[(bits >> 4) & 15] + HEX[bits & 15] + HEX[(bits >> 12) & 15] + HEX[(bits >> 8) & 15];
}

// renderFile returns the rows of the Parquet file at path as JSON Lines.
export async function renderFile(conn, path) {
  const q = path.replaceAll("'", "''");
  const schema = (await conn.runAndReadAll(`SELECT * FROM parquet_schema('${q}')`)).getRowObjectsJS();
  // Leaves in column order: schema elements without children.
  const leaves = schema.slice(1).filter((e) => e.num_children === null || Number(e.num_children) === 0 && e.type !== null);
  const desc = await conn.runAndReadAll(`SELECT * FROM read_parquet('${q}') LIMIT 0`);
  const names = desc.columnNames();
  const types = desc.columnTypes();
  const it = leaves[Symbol.iterator]();
  const cols = names.map((n, i) => ({ name: n, p: plan(`"${n.replaceAll('"', '""')}"`, types[i], it) }));
  if (!it.next().done) throw new Error(`${path}: leaves left over`);
  if (cols.length === 0) return '';
  const sql = `SELECT ${cols.map((c, i) => `${c.p.sql} AS c${i}`).join(', ')} FROM read_parquet('${q}')`;
  const rows = (await conn.runAndReadAll(sql)).getRowsJS();
  let out = '';
  for (const r of rows) {
    out += '{' + cols.map((c, i) => jsonString(c.name) + ':' + c.p.write(r[i])).join(',') + '}\n';
  }
  return out;
}
