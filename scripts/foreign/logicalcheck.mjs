// Compares the logical values of `pqcodec cat` (package rows) with DuckDB's
// reading of the same files, for every top-level column of a type DuckDB
// converts: dates, times, timestamps (to the nanosecond or microsecond
// DuckDB keeps), decimals, UUIDs, intervals, signed and unsigned integers of
// every width, FLOAT (FLOAT16 included). Columns DuckDB cannot read are
// counted and skipped.
//
//   node logicalcheck.mjs PQCODEC FILE...
//
// Known differences, counted and not failures: a legacy TIMESTAMP_MILLIS or
// TIMESTAMP_MICROS without a logical type is adjusted to UTC
// (LogicalTypes.md, parquet-java: pqcodec writes a Z), DuckDB reads it as
// local; timestamps beyond DuckDB's range (which it wraps around) are
// skipped. The exit status is 1 when any column differs.
import { DuckDBInstance } from '@duckdb/node-api';
import { execFileSync } from 'node:child_process';

const [pq, ...files] = process.argv.slice(2);
const inst = await DuckDBInstance.create(':memory:');
const conn = await inst.connect();
await conn.run("SET TimeZone='UTC'");

// nanos of a clock text HH:MM:SS[.f]
function clockNs(s) {
  const m = /^(\d+):(\d\d):(\d\d)(?:\.(\d+))?/.exec(s);
  return ((BigInt(m[1]) * 60n + BigInt(m[2])) * 60n + BigInt(m[3])) * 1000000000n + BigInt((m[4] || '').padEnd(9, '0'));
}
function tsNs(s) { // ours: DATE 'T' CLOCK [Z]
  const m = /^([+-]?\d+)-(\d\d)-(\d\d)T(.*)$/.exec(s);
  const dd = new Date(0);
  dd.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  dd.setUTCHours(0, 0, 0, 0);
  if (Number.isNaN(dd.getTime())) return 'out of range ' + s;
  return BigInt(dd.getTime()) * 1000000n + clockNs(m[4]);
}
const floorDiv = (a, b) => (a >= 0n ? a / b : -((-a + b - 1n) / b));

let checked = 0, bad = 0, skipped = 0, legacyUTC = 0, beyond = 0;
const kinds = {};
for (const f of files) {
  const q = f.replaceAll("'", "''");
  let cols;
  try {
    cols = (await conn.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${q}')`)).getRowObjectsJS();
  } catch (e) { skipped++; continue; }
  const schema = (await conn.runAndReadAll(`SELECT name, converted_type, logical_type, num_children FROM parquet_schema('${q}')`)).getRowObjectsJS();
  const legacy = new Set(schema.filter((r) => /^TIMESTAMP_M/.test(r.converted_type || '') && !r.logical_type).map((r) => r.name));
  for (const { column_name: name, column_type: type } of cols) {
    let sql, norm, ours;
    const id = `"${name.replaceAll('"', '""')}"`;
    if (type === 'DATE') { sql = `CAST(${id} AS VARCHAR)`; ours = (s) => JSON.parse(s); norm = (s) => s; }
    else if (/^TIME(_NS)?$/.test(type)) { sql = `CAST(${id} AS VARCHAR)`; ours = (s) => clockNs(JSON.parse(s)).toString(); norm = (s) => clockNs(s).toString(); }
    else if (/^TIMESTAMP/.test(type)) {
      sql = type === 'TIMESTAMP_NS' ? `CAST(epoch_ns(${id}) AS VARCHAR)` : `CAST(epoch_us(${id}) AS VARCHAR)`;
      const tz = type.includes('TIME ZONE');
      ours = (s) => {
        const t = JSON.parse(s);
        if (t.endsWith('Z') !== tz) {
          // A legacy TIMESTAMP_MILLIS/MICROS without a logical type is
          // adjusted to UTC (LogicalTypes.md, parquet-java); DuckDB reads it
          // as a local timestamp.
          if (!(t.endsWith('Z') && legacy.has(name))) return 'zone mismatch ' + t;
          legacyUTC++;
        }
        const ns = tsNs(t.replace(/Z$/, ''));
        if (typeof ns === 'string') { beyond++; return null; }
        if (type === 'TIMESTAMP_NS') return ns.toString();
        // pqcodec keeps nanoseconds; DuckDB floors them to microseconds
        // (INT96) or truncates them toward zero (TIMESTAMP_NS read as
        // TIMESTAMPTZ): accept either.
        const fl = floorDiv(ns, 1000n);
        return [fl.toString(), (ns % 1000n !== 0n && ns < 0n ? fl + 1n : fl).toString()];
      };
      norm = (s) => s;
    }
    else if (/^DECIMAL|^U?(TINYINT|SMALLINT|INTEGER|BIGINT)$|^UUID$|^INTERVAL$/.test(type)) {
      sql = `CAST(${id} AS VARCHAR)`; norm = (s) => s;
      ours = (s) => (s.startsWith('"') ? JSON.parse(s) : s);
    }
    else if (type === 'FLOAT') { sql = `CAST(${id} AS VARCHAR)`; norm = (s) => String(Math.fround(Number(s.replace('inf', 'Infinity')))); ours = (s) => String(Math.fround(Number(s.startsWith('"') ? JSON.parse(s) : s))); }
    else continue;
    let want;
    try {
      want = (await conn.runAndReadAll(`SELECT ${sql} AS v FROM read_parquet('${q}')`)).getRowObjectsJS().map((r) => r.v);
    } catch (e) { skipped++; continue; }
    let out;
    try {
      out = execFileSync(pq, ['cat', '--columns', name, f], { maxBuffer: 1 << 30 }).toString().split('\n').filter((l) => l);
    } catch (e) { console.log(`pqcodec failed ${f} ${name}`); bad++; continue; }
    const prefix = JSON.stringify({ [name]: 0 }).slice(0, -2);
    for (let i = 0; i < want.length; i++) {
      const raw = out[i].slice(prefix.length, -1);
      const w = want[i] === null ? null : norm(want[i]);
      const g = raw === 'null' ? null : ours(raw);
      if (g === null && raw !== 'null') continue; // beyond DuckDB's range
      if (w !== g && !(Array.isArray(g) && g.includes(w))) {
        bad++;
        if (bad < 30) console.log(`MISMATCH ${f} ${name} (${type}) row ${i}: pqcodec ${raw} -> ${g}, duckdb ${want[i]} -> ${w}`);
        break;
      }
      checked++;
      kinds[type.replace(/\(.*/, '')] = (kinds[type.replace(/\(.*/, '')] || 0) + 1;
    }
  }
}
console.log(`logicalcheck: ${checked} values agree (${legacyUTC} legacy UTC timestamps DuckDB reads as local), ${beyond} beyond DuckDB's range, ${bad} columns differ, ${skipped} columns DuckDB cannot read`);
console.log(kinds);
process.exit(bad > 0 ? 1 : 0);
