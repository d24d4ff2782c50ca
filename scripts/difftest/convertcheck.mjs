// Checks `pqcodec convert` (JSON Lines and CSV to Parquet) against DuckDB's
// own JSON and CSV readers on inputs generated here:
//
//   node convertcheck.mjs PQCODEC WORKDIR [SEED]
//
// For each input: pqcodec convert IN OUT, then DuckDB reads OUT
// (read_parquet) and reads IN itself (read_json / read_csv) with the column
// types of OUT given to it (columns={...}), one thread, insertion order
// kept; the rows must be identical, in order. DuckDB's own inference of the
// same input is printed beside ours ("infer:" lines), not a failure, since
// the rules differ on purpose:
//
//   - JSON integers: pqcodec INT64 always; DuckDB BIGINT (or UBIGINT/HUGEINT
//     past the range).
//   - RFC 3339 timestamps: pqcodec TIMESTAMP(MICROS, UTC-adjusted), i.e.
//     TIMESTAMP WITH TIME ZONE, whatever the offset; DuckDB infers TIMESTAMP
//     (without zone) for JSON when no string carries an offset, and may
//     infer DATE or TIME for other string shapes pqcodec keeps as STRING.
//   - Nested JSON: pqcodec makes groups and three-level LISTs (DuckDB STRUCT
//     and LIST); DuckDB may make a MAP or JSON for objects whose keys vary,
//     and JSON for mixed kinds, where pqcodec makes a STRING of each value's
//     text, or refuses an object mixed with scalars.
//   - Required/optional: pqcodec makes a field required when no row read is
//     null or missing it; DuckDB's columns are all nullable.
//   - A field only ever null: pqcodec optional STRING; DuckDB NULL/JSON.
//   - CSV booleans: pqcodec takes true/false only; DuckDB also T/F, 1/0
//     (here only true/false are written).
//   - Ragged CSV rows: pqcodec refuses them, naming the line; DuckDB's
//     read_csv with its sniffer reads such files (printed, not compared).
//   - A value past --infer-rows that does not fit (a string in an integer
//     column, a null in a column inferred required): pqcodec refuses it,
//     naming the line; DuckDB samples 20,480 rows and reads these inputs.
//
// Error cases (a bad line in the middle, a ragged CSV row, a value of
// another type past --infer-rows): convert must exit non-zero, name the
// input line, and leave neither OUT nor a temporary file in WORKDIR.
// The last line is "convertcheck: N inputs, M rows identical"; the exit
// status is 1 at the first difference.

import { DuckDBInstance } from '@duckdb/node-api';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const q = (s) => `'${s.replaceAll("'", "''")}'`;
const qi = (s) => `"${s.replaceAll('"', '""')}"`;

function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = ['plain', 'with "quotes"', "it's", 'a,b;c', 'tab\there', 'line\nbreak', 'crlf\r\nend',
  'back\\slash', 'ünïcödé', '日本語', '🦆 duck', 'Ωμέγα', '  spaced  ', '{"not":"json"}', '', 'x'];

function gen(rand) {
  const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
  const pick = (xs) => xs[int(0, xs.length - 1)];
  const str = () => Array.from({ length: int(1, 3) }, () => pick(PIECES)).join(' ');
  const float = () => pick([0.5, -1.25, 1e-7, 3.141592653589793, 1.5e300, -2.5e-300, 1.0000000000000002]) * int(1, 9);
  const ts = () => {
    const ms = int(0, 4102444800) * 1000 + int(0, 999);
    const d = new Date(ms).toISOString(); // 2024-01-31T12:34:56.789Z
    switch (int(0, 3)) {
      case 0: return d;
      case 1: return d.slice(0, 19) + 'Z';
      case 2: return d.slice(0, 19) + '.' + String(int(0, 999999)).padStart(6, '0') + '+02:00';
      default: return d.slice(0, 23) + '-05:30';
    }
  };
  const big = () => pick([0, 1, -1, 42, 2 ** 31, -(2 ** 31) - 1, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER]) + int(0, 9);
  return { int, pick, str, float, ts, big, rand };
}

// JSON Lines inputs: [name, lines, extra convert flags].
function jsonInputs(g) {
  const out = [];
  const types = [];
  for (let i = 0; i < 300; i++) {
    const row = {
      id: i,
      big: g.big(),
      f: g.float(),
      b: g.rand() < 0.5,
      s: g.str(),
      t: g.ts(),
      n: { x: g.int(-100, 100), tags: Array.from({ length: g.int(0, 3) }, g.str), deep: { y: g.float() } },
      arr: Array.from({ length: g.int(0, 4) }, () => g.int(-5, 5)),
      objs: Array.from({ length: g.int(0, 2) }, () => ({ k: g.str(), v: g.int(0, 9) })),
    };
    out.push(JSON.stringify(row));
  }
  types.push(['json-types', out, []]);

  const nulls = [];
  for (let i = 0; i < 200; i++) {
    const row = { id: i };
    if (g.rand() < 0.7) row.oi = g.rand() < 0.3 ? null : g.int(-1000, 1000);
    row.os = g.rand() < 0.4 ? null : g.str();
    row.always = null;
    row.ob = g.rand() < 0.5 ? null : { a: g.rand() < 0.5 ? null : g.int(0, 9), l: g.rand() < 0.3 ? null : [g.rand() < 0.2 ? null : g.str()] };
    row.ot = g.rand() < 0.5 ? null : g.ts();
    nulls.push(JSON.stringify(row));
  }
  types.push(['json-nulls', nulls, []]);

  // An integer column that meets a number with a fraction widens to DOUBLE;
  // mixed scalars are STRING columns holding each value's text.
  const widen = [];
  for (let i = 0; i < 100; i++) {
    const row = { w: i === 70 ? 2.5 : g.int(-(2 ** 40), 2 ** 40), m: g.pick([g.str(), g.int(0, 9), true, false]) };
    widen.push(JSON.stringify(row));
  }
  types.push(['json-widen-mixed', widen, []]);
  types.push(['json-blank-lines', ['', JSON.stringify({ a: 1, s: 'x' }), '   ', JSON.stringify({ a: 2, s: 'y' }), ''], []]);
  types.push(['json-empty-schema', [], ['--schema', 'message m { optional int64 a; optional binary s (STRING); }']]);
  return types;
}

function csvField(s) {
  if (s === null) return '';
  return /[",\r\n]/.test(s) || s === '' || s.trim() !== s ? `"${s.replaceAll('"', '""')}"` : s;
}

function csvInputs(g) {
  const header = ['id', 'big', 'f', 'b', 's', 't', 'maybe', 'ünï côl'];
  const lines = [header.map(csvField).join(',')];
  for (let i = 0; i < 300; i++) {
    const f = [String(i), String(g.big()), String(g.float()), g.rand() < 0.5 ? 'true' : 'false',
      g.str().replaceAll('\r', '') || 'x', g.ts(), g.rand() < 0.4 ? null : String(g.int(-9, 9)), g.pick(['α', 'β,γ', 'δ"ε"'])];
    lines.push(f.map(csvField).join(','));
  }
  return [['csv-types', lines, []], ['csv-header-only', ['a,b'], []]];
}

// Error inputs: [name, format, lines, flags, the line the error must name].
function badInputs(g) {
  const ne = () => g.str() || 'x'; // an empty CSV field is null, and these columns are required
  const j = Array.from({ length: 100 }, (_, i) => JSON.stringify({ i, s: ne() }));
  const jBad = j.slice();
  jBad[57] = '{"i": 57, "s": "unterminated}';
  const jType = j.slice();
  jType[80] = JSON.stringify({ i: 'eighty', s: 'x' });
  const c = ['i,s', ...Array.from({ length: 100 }, (_, i) => `${i},${csvField(ne().replaceAll('\r', '').replaceAll('\n', ' '))}`)];
  const cRag = c.slice();
  cRag[43] = '42';
  const cLong = c.slice();
  cLong[61] = '60,a,extra';
  const cType = c.slice();
  cType[90] = 'ninety,x';
  const cQuote = c.slice();
  cQuote[33] = '32,"open quote';
  return [
    ['json-bad-line', 'jsonl', jBad, [], 58],
    ['json-type-past-inference', 'jsonl', jType, ['--infer-rows', '10'], 81],
    ['csv-ragged-short', 'csv', cRag, [], 44],
    ['csv-ragged-long', 'csv', cLong, [], 62],
    ['csv-type-past-inference', 'csv', cType, ['--infer-rows', '10'], 91],
    ['csv-unterminated-quote', 'csv', cQuote, [], 34],
  ];
}

function convert(pq, input, output, flags) {
  return spawnSync(pq, ['convert', input, output, ...flags], { encoding: 'utf8' });
}

async function describe(conn, from) {
  const r = await conn.runAndReadAll(`DESCRIBE SELECT * FROM ${from}`);
  return r.getRows().map(([name, type]) => [name, type]);
}

async function rowsJson(conn, sql) {
  const r = await conn.runAndReadAll(sql);
  return r.getRowsJson().map((row) => JSON.stringify(row));
}

async function main() {
  const [pq, dir, seedArg] = process.argv.slice(2);
  if (!pq || !dir) throw new Error('usage: node convertcheck.mjs PQCODEC WORKDIR [SEED]');
  const seed = Number(seedArg ?? 1);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const g = gen(prng(seed));
  const inst = await DuckDBInstance.create(':memory:');
  const conn = await inst.connect();
  await conn.run('SET threads = 1');
  await conn.run('SET preserve_insertion_order = true');
  await conn.run("SET TimeZone = 'UTC'");

  let failures = 0;
  let inputs = 0;
  let total = 0;
  const fail = (msg) => {
    console.log(`MISMATCH ${msg}`);
    failures++;
  };

  const cases = [...jsonInputs(g).map((c) => ['jsonl', ...c]), ...csvInputs(g).map((c) => ['csv', ...c])];
  for (const [fmt, name, lines, flags] of cases) {
    inputs++;
    const input = join(dir, `${name}.${fmt}`);
    const output = join(dir, `${name}.parquet`);
    writeFileSync(input, lines.length ? lines.join('\n') + '\n' : '');
    const res = convert(pq, input, output, flags);
    if (res.status !== 0) {
      fail(`${name}: convert exited ${res.status}: ${res.stderr.trim()}`);
      continue;
    }
    const ours = await describe(conn, `read_parquet(${q(output)})`);
    const cols = `{${ours.map(([n, t]) => `${q(n)}: ${q(t)}`).join(', ')}}`;
    const reader = fmt === 'jsonl'
      ? `read_json(${q(input)}, format = 'newline_delimited', columns = ${cols})`
      : `read_csv(${q(input)}, header = true, delim = ',', quote = '"', escape = '"', columns = ${cols})`;
    if (lines.filter((l) => l.trim() !== '').length > (fmt === 'csv' ? 1 : 0)) {
      try {
        const theirs = await describe(conn, fmt === 'jsonl' ? `read_json(${q(input)}, format = 'newline_delimited')` : `read_csv(${q(input)})`);
        const diff = ours.filter(([n, t]) => {
          const o = theirs.find(([m]) => m === n);
          return !o || o[1] !== t;
        }).map(([n, t]) => `${n}: ours ${t}, DuckDB ${theirs.find(([m]) => m === n)?.[1] ?? 'absent'}`);
        if (diff.length) console.log(`infer: ${name}: ${diff.join('; ')}`);
      } catch (e) {
        console.log(`infer: ${name}: DuckDB's own inference failed: ${e.message.split('\n')[0]}`);
      }
    }
    const list = ours.map(([n]) => qi(n)).join(', ');
    let got;
    let want;
    try {
      got = await rowsJson(conn, `SELECT ${list} FROM read_parquet(${q(output)})`);
      want = lines.filter((l) => l.trim() !== '').length === 0 ? [] : await rowsJson(conn, `SELECT ${list} FROM ${reader}`);
    } catch (e) {
      fail(`${name}: DuckDB: ${e.message.split('\n')[0]}`);
      continue;
    }
    if (got.length !== want.length) {
      fail(`${name}: ${got.length} rows in ours, DuckDB reads ${want.length} from the input`);
      continue;
    }
    const i = got.findIndex((r, k) => r !== want[k]);
    if (i >= 0) {
      fail(`${name} row ${i}: ${got[i]}, DuckDB ${want[i]}`);
      continue;
    }
    total += got.length;
    console.log(`ok ${name}: ${got.length} rows, ${ours.map(([n, t]) => `${n} ${t}`).join(', ')}`);
  }

  for (const [name, fmt, lines, flags, line] of badInputs(g)) {
    inputs++;
    const sub = join(dir, name);
    mkdirSync(sub);
    const input = join(sub, `in.${fmt}`);
    const output = join(sub, 'out.parquet');
    writeFileSync(input, lines.join('\n') + '\n');
    const res = convert(pq, input, output, flags);
    const msg = res.stderr.trim();
    const left = readdirSync(sub).filter((f) => f !== `in.${fmt}`);
    if (res.status === 0) fail(`${name}: convert exited 0`);
    else if (!msg.includes(`:${line}:`) && !msg.includes(`line ${line}`)) fail(`${name}: error does not name line ${line}: ${msg}`);
    else if (existsSync(output) || left.length) fail(`${name}: left ${left.join(', ')}`);
    else console.log(`ok ${name}: exit ${res.status}, ${msg}`);
    let duck;
    try {
      await conn.runAndReadAll(`SELECT count(*) FROM ${fmt === 'jsonl' ? `read_json(${q(input)}, format = 'newline_delimited')` : `read_csv(${q(input)})`}`);
      duck = 'reads it';
    } catch (e) {
      duck = `refuses it: ${e.message.split('\n')[0]}`;
    }
    console.log(`  DuckDB ${duck}`);
  }

  console.log(`convertcheck: ${inputs} inputs, ${total} rows identical${failures ? `, ${failures} failures` : ''}`);
  if (failures) process.exit(1);
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
