// Inputs and the DuckDB side of the convert benchmark (bench/CONVERT.md):
//
//   node convertbench.mjs gen DIR [MB]    writes DIR/{flat,strings,nested}.jsonl
//                                         and DIR/{flat,strings}.csv, about MB each
//   node convertbench.mjs duckdb IN OUT CODEC
//                                         COPY (SELECT * FROM read_json|read_csv(IN))
//                                         TO OUT (FORMAT parquet, COMPRESSION CODEC)
//
// The shapes: flat (integers, doubles, a boolean, an RFC 3339 timestamp),
// strings (names, a low-cardinality city, e-mails, texts of 40-200
// characters with quotes, escapes and non-ASCII), nested (a struct, a list
// of strings, a list of structs). Rows are drawn from a fixed seed.

import { DuckDBInstance } from '@duckdb/node-api';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';

const q = (s) => `'${s.replaceAll("'", "''")}'`;

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

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'river', 'stone', 'Zürich', 'São Paulo', 'naïve', '東京', 'quote"d',
  'back\\slash', 'comma,ed', 'lorem', 'ipsum', 'dolor', 'sit', 'amet', 'consectetur', 'adipiscing', 'elit'];
const CITIES = ['Berlin', 'Paris', 'Tokyo', 'Lagos', 'Lima', 'Oslo', 'Quito', 'Perth', 'Delhi', 'Cairo'];

function shapes(rand) {
  const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
  const word = () => WORDS[int(0, WORDS.length - 1)];
  const words = (n) => Array.from({ length: n }, word).join(' ');
  const ts = () => new Date(int(1500000000, 1800000000) * 1000 + int(0, 999)).toISOString();
  return {
    flat: (id) => ({ id, a: int(-1000, 1000), b: int(0, 2 ** 40), x: Math.round(rand() * 1e6) / 100, y: rand() * 1e3 - 500,
      ok: rand() < 0.5, t: ts() }),
    strings: (id) => ({ id, name: `${word()} ${word()}`, city: CITIES[int(0, CITIES.length - 1)],
      email: `user${int(0, 99999)}@example.org`, text: words(int(6, 30)), note: `n${int(0, 999)}` }),
    nested: (id) => ({ id, user: { name: words(2), age: int(18, 90) }, tags: Array.from({ length: int(0, 4) }, word),
      events: Array.from({ length: int(0, 3) }, () => ({ k: word(), v: Math.round(rand() * 1e4) / 10 })) }),
  };
}

const csvField = (v) => {
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
};

async function write(path, lines) {
  const out = createWriteStream(path);
  let buf = [];
  for (const l of lines) {
    buf.push(l);
    if (buf.length === 4096) {
      if (!out.write(buf.join('\n') + '\n')) await new Promise((r) => out.once('drain', r));
      buf = [];
    }
  }
  if (buf.length) out.write(buf.join('\n') + '\n');
  await new Promise((r, e) => out.end((err) => (err ? e(err) : r())));
}

function* rows(make, mb) {
  let size = 0;
  for (let id = 0; size < mb * 1e6; id++) {
    const row = make(id);
    size += JSON.stringify(row).length + 1;
    yield row;
  }
}

async function gen(dir, mb) {
  for (const [name, make] of Object.entries(shapes(prng(7)))) {
    await write(join(dir, `${name}.jsonl`), (function* () { for (const r of rows(make, mb)) yield JSON.stringify(r); })());
  }
  for (const name of ['flat', 'strings']) {
    const make = shapes(prng(7))[name];
    const cols = Object.keys(make(0));
    await write(join(dir, `${name}.csv`), (function* () {
      yield cols.join(',');
      for (const r of rows(make, mb)) yield cols.map((c) => csvField(r[c])).join(',');
    })());
  }
}

async function duckdb(input, output, codec) {
  const inst = await DuckDBInstance.create(':memory:');
  const conn = await inst.connect();
  const src = input.endsWith('.csv') ? `read_csv(${q(input)})` : `read_json(${q(input)}, format = 'newline_delimited')`;
  await conn.run(`COPY (SELECT * FROM ${src}) TO ${q(output)} (FORMAT parquet, COMPRESSION ${codec})`);
}

const [cmd, ...args] = process.argv.slice(2);
(cmd === 'gen' ? gen(args[0], Number(args[1] ?? 50)) : cmd === 'duckdb' ? duckdb(...args) : Promise.reject(new Error('usage: see the header')))
  .catch((e) => {
    console.error(e);
    process.exit(2);
  });
