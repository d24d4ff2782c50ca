// Differential test of pqcodec against real Parquet writers.
//
//   node difftest.mjs --pqcodec BIN --gowriter BIN [--pqwriter BIN] [--seed S] [--n N] [--writers duckdb,arrow-rs,...]
//                     [--readers arrow-rs,polars,...] [--out DIR] [--case K | --from K] [--keep] [--minimize]
//                     [--verbose] [--coverage]
//
// For each writer and case k in [0, N) (or [K, N) with --from K, to resume a
// long run): draw a random table and writer
// options from (seed, writer, k), write the file with the writer, read it
// with DuckDB rendered as `pqcodec cat --raw` prints it (render.mjs), read it
// with `pqcodec cat --raw`, and compare. A mismatch prints the seed and case and keeps
// the file and its description under DIR (--minimize also writes the
// smallest table that still mismatches, with its expected rows, to commit
// under testdata/difftest); the exit status is 1 if any case mismatched.
//
// The writer pqcodec (pqcodec's own writer, the pqwriter program) is
// checked the other way round as well: each file it writes is also read by
// the readers of readers.mjs (all by default, or --readers), each compared
// with the generated table; a reader's error or difference is a READER
// MISMATCH unless readers.mjs lists it as that reader's own limit (refused).
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync, rmSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { rng, randomTable, typeString } from './gen.mjs';
import { schemaTree, row, sourceValues } from './render.mjs';
import * as duckdbW from './writers/duckdb.mjs';
import * as arrowW from './writers/arrow.mjs';
import * as pqW from './writers/pqcodec.mjs';
import { READERS, refusal, pageInfo, hyparquetSource, normalize } from './readers.mjs';

const run = promisify(execFile);

function args() {
  const a = { seed: '1', n: 20, writers: 'duckdb,arrow-rs,polars,arrow-go,parquet-go', out: '', case: null, pqcodec: '', keep: false };
  const v = process.argv.slice(2);
  for (let i = 0; i < v.length; i++) {
    const k = v[i].replace(/^--/, '');
    if (['keep', 'minimize', 'verbose', 'coverage'].includes(k)) { a[k] = true; continue; }
    a[k] = v[++i];
  }
  a.n = Number(a.n);
  if (!a.pqcodec) throw new Error('--pqcodec BIN is required');
  if (!a.out) a.out = `/tmp/pqcodec-difftest-${a.seed}`;
  return a;
}

const WRITERS = {
  duckdb: { caps: duckdbW.caps, options: duckdbW.options, write: (ctx, t, o, p) => duckdbW.write(ctx.wconn, t, o, p) },
  'arrow-rs': arrowW.writer('arrow-rs'),
  polars: arrowW.writer('polars'),
  'arrow-go': arrowW.writer('arrow-go'),
  'parquet-go': arrowW.writer('parquet-go'),
  // pqcodec's own writer: its files are also read by every reader of
  // readers.mjs. Its schema is drawn with the options, so --minimize cuts
  // rows only; a file it fails to write is a mismatch, not a refusal.
  pqcodec: { caps: pqW.caps, options: pqW.options, write: pqW.write, fixedSchema: true, ownWriter: true, readers: true },
};

const big = (k, v) => (typeof v === 'bigint' ? v.toString() : v);

async function schemaOf(ctx, path) {
  const s = await ctx.rconn.runAndReadAll(`SELECT * FROM parquet_schema('${path}')`);
  return schemaTree(s.getRowObjects());
}

// expected reads the file with DuckDB.
async function expected(ctx, root, path) {
  const r = await ctx.rconn.runAndReadAll(`SELECT * FROM read_parquet('${path}')`);
  return r.getRows().map((vals) => row(root, vals));
}

// fromSource renders the generated table under the file's schema: the
// truth where DuckDB cannot read a file or disagrees with pqcodec.
function fromSource(root, table) {
  const out = [];
  for (let i = 0; i < table.rows; i++) out.push(row(root, sourceValues(table, i)));
  return out;
}

// firstDiff describes the first difference between two renderings, or
// returns null when they are identical.
function firstDiff(got, want, gotName, wantName) {
  if (got.length === want.length && got.every((l, i) => l === want[i])) return null;
  const i = got.findIndex((l, i) => l !== want[i]);
  const at = i < 0 ? Math.min(got.length, want.length) : i;
  const w = Math.max(gotName.length, wantName.length) + 1;
  return `rows: ${gotName} ${got.length}, ${wantName} ${want.length}; first difference at row ${at}:\n  ${(gotName + ':').padEnd(w)} ${(got[at] ?? '<none>').slice(0, 600)}\n  ${(wantName + ':').padEnd(w)} ${(want[at] ?? '<none>').slice(0, 600)}`;
}

async function actual(ctx, path) {
  const { stdout } = await run(ctx.pqcodec, ['cat', '--raw', path], { maxBuffer: 1 << 30 });
  return stdout === '' ? [] : stdout.replace(/\n$/, '').split('\n');
}

// check writes table with writer W and options o to path and compares
// pqcodec with the expected rows. It returns {status, diff, expected, notes}:
// status 'ok', 'mismatch', 'writer' (the writer refused) or 'schema'
// (DuckDB cannot read the schema, so there is nothing to compare with).
async function check(ctx, W, table, o, path) {
  const notes = [];
  try {
    await W.write(ctx, table, o, path);
  } catch (e) {
    const msg = String(e.message || e).split('\n')[0].slice(0, 300);
    if (W.ownWriter) return { status: 'mismatch', diff: `writer: ${msg}`, notes, signature: `writer: ${msg.replace(/\d+/g, 'N')}` };
    return { status: 'writer', diff: msg, notes };
  }
  let root, want = null, src = null, werr = '';
  try {
    root = await schemaOf(ctx, path);
  } catch (e) {
    return { status: 'schema', diff: String(e.message || e).split('\n')[0].slice(0, 300), notes };
  }
  try {
    want = await expected(ctx, root, path);
  } catch (e) {
    werr = String(e.message || e).split('\n')[0].slice(0, 300);
    notes.push({ kind: 'duckdbError', text: `duckdb cannot read it: ${werr}` });
  }
  try {
    src = fromSource(root, table);
  } catch (e) {
    notes.push({ kind: 'sourceError', text: `cannot render the source: ${e.message}` });
  }
  let got, err = null;
  try {
    got = await actual(ctx, path);
  } catch (e) {
    err = (e.stderr || e.message || String(e)).trim();
  }
  if (want && src && ctx.checkSource) {
    const d = firstDiff(want, src, 'duckdb', 'source');
    // DuckDB's dictionaries hold -0 and 0 as one value: a known writer
    // behaviour, counted but not printed.
    if (d) notes.push({ kind: firstDiff(want.map(noNegZero), src.map(noNegZero), '', '') ? 'duckdbDiffers' : 'negZero', text: `duckdb differs from the source\n  ${d}` });
  }
  let diff = null, exp = want;
  if (err) diff = `pqcodec: ${err}`;
  else if (want) {
    diff = firstDiff(got, want, 'pqcodec', 'duckdb');
    if (diff && src && !firstDiff(got, src, 'pqcodec', 'source')) {
      notes.push({ kind: 'duckdbDiffers', text: `pqcodec matches the source where duckdb differs\n  ${diff}` });
      diff = null;
      exp = src;
    }
  } else if (src) {
    exp = src;
    diff = firstDiff(got, src, 'pqcodec', 'source');
  } else diff = 'no expected rows';
  if (diff && !want) diff += `\n  (compared with the source: ${werr})`;
  if (!want && src) notes.push({ kind: 'viaSource', text: '' });
  if (err && !exp) exp = src;
  return { status: diff ? 'mismatch' : 'ok', diff, expected: exp, notes, signature: diff ? signature(diff) : '', root, src };
}

// readBack reads the file at path with reader rn and compares its rows with
// src, the generated table rendered under the file's schema (root). It
// returns {status: 'ok' | 'refused' | 'mismatch', why, diff}.
async function readBack(ctx, rn, path, table, root, src, opts) {
  let got;
  try {
    const r = await READERS[rn](ctx, path, table);
    if (r.rendered) got = r.rendered;
    else {
      got = r.rows.map((vals) => row(root, vals.map((v, k) => normalize(table.columns[k].type, v))));
      if (r.hyparquet) {
        src = [];
        for (let i = 0; i < table.rows; i++) src.push(row(root, sourceValues(table, i).map((v, k) => hyparquetSource(table.columns[k].type, v))));
      }
    }
  } catch (e) {
    const msg = String(e.message || e).split('\n')[0].slice(0, 300);
    const why = refusal(rn, msg, opts, await pageInfo(ctx, path));
    if (why) return { status: 'refused', why };
    return { status: 'mismatch', diff: `${rn}: ${msg}` };
  }
  const diff = firstDiff(got, src, rn, 'source');
  if (!diff) return { status: 'ok' };
  // A known bug of the reader that gives wrong rows rather than an error.
  const why = refusal(rn, 'rows differ', opts, await pageInfo(ctx, path));
  return why ? { status: 'refused', why } : { status: 'mismatch', diff };
}

const noNegZero = (l) => l.replace(/([[,:])-0(?=[,\]}])/g, '$10');

// cover adds the codecs, encodings and row groups of a file, as DuckDB's
// parquet_metadata() lists them, to cov.
async function cover(ctx, cov, path) {
  try {
    const r = await ctx.rconn.runAndReadAll(`SELECT row_group_id, compression, encodings FROM parquet_metadata('${path}')`);
    let groups = 0;
    for (const [g, c, e] of r.getRows()) {
      cov.codecs.add(c);
      for (const x of String(e).split(', ')) cov.encodings.add(x);
      groups = Math.max(groups, Number(g) + 1);
    }
    if (groups > 1) cov.multiGroup++;
  } catch {
    // a file DuckDB cannot read: not counted
  }
}

// signature is what a smaller case must reproduce: the pqcodec error
// without its numbers, or the kind of difference.
function signature(diff) {
  if (diff.startsWith('pqcodec: ')) return diff.replace(/\S+\.parquet/g, 'FILE').replace(/column [^,]*, row group \d+, page \d+: /, '').replace(/\d+/g, 'N').split('\n')[0];
  return 'rows differ';
}

// minimize drops columns and rows of a mismatching table while the
// mismatch keeps its signature, and returns the smallest table found.
async function minimize(ctx, W, table, o, path, sig) {
  const still = async (t) => {
    const r = await check(ctx, W, t, o, path);
    return r.status === 'mismatch' && r.signature === sig;
  };
  let best = table;
  for (let i = best.columns.length - 1; i >= 0 && best.columns.length > 1 && !W.fixedSchema; i--) {
    const t = { ...best, columns: best.columns.filter((_, j) => j !== i), data: best.data.filter((_, j) => j !== i) };
    if (await still(t)) best = t;
  }
  const cut = (t, from, to) => ({ ...t, rows: to - from, data: t.data.map((c) => c.slice(from, to)) });
  for (let step = Math.floor(best.rows / 2); step >= 1; step = Math.floor(step / 2)) {
    let changed = true;
    while (changed && best.rows > step) {
      changed = false;
      for (const t of [cut(best, 0, best.rows - step), cut(best, step, best.rows)]) {
        if (await still(t)) { best = t; changed = true; break; }
      }
    }
  }
  return best;
}

async function main() {
  const a = args();
  mkdirSync(a.out, { recursive: true });
  const inst = await DuckDBInstance.create(':memory:');
  const readerNames = (a.readers ?? Object.keys(READERS).join(',')).split(',').filter(Boolean);
  const ctx = { pqwriter: a.pqwriter, wconn: await inst.connect(), rconn: await inst.connect(), pqcodec: a.pqcodec, out: a.out, checkSource: a['check-source'] !== 'false', gowriter: a.gowriter };
  await ctx.rconn.run('SET threads = 1');
  await ctx.wconn.run('SET threads = 1');
  let failed = 0, passed = 0;
  const started = Date.now();
  for (const w of a.writers.split(',').filter(Boolean)) {
    const W = WRITERS[w];
    if (!W) throw new Error(`unknown writer ${w} (have ${Object.keys(WRITERS).join(', ')})`);
    const rst = Object.fromEntries(readerNames.map((n) => [n, { ok: 0, refused: 0, mismatch: 0, why: {} }]));
    const st = { cases: 0, ok: 0, mismatch: 0, writer: 0, schema: 0, duckdbError: 0, viaSource: 0, duckdbDiffers: 0, negZero: 0, sourceError: 0 };
    const t0 = Date.now();
    const cov = { codecs: new Set(), encodings: new Set(), rowGroups: 0, multiGroup: 0 };
    const cases = a.case != null ? [Number(a.case)] : [...Array(a.n).keys()].slice(Number(a.from ?? 0));
    for (const k of cases) {
      st.cases++;
      if (st.cases % 100 === 0) console.log(`progress ${w}: ${st.cases - 1} cases done, ${st.ok} identical, ${st.mismatch} mismatched (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
      const r = rng(a.seed, w, k);
      const table = randomTable(r, W.caps);
      const opts = W.options(r, table);
      const name = `${w}-${a.seed}-${k}`;
      const path = join(a.out, `${name}.parquet`);
      const desc = (t) => ({ seed: a.seed, writer: w, case: k, rows: t.rows, options: opts, schema: t.columns.map((c) => `${c.name}: ${typeString(c.type)}`) });
      const tag = `seed=${a.seed} writer=${w} case=${k}`;
      const res = await check(ctx, W, table, opts, path);
      let keep = a.keep;
      st[res.status]++;
      if (W.readers && res.src && (res.status === 'ok' || res.status === 'mismatch')) {
        for (const rn of readerNames) {
          const rr = await readBack(ctx, rn, path, table, res.root, res.src, opts);
          rst[rn][rr.status]++;
          if (rr.status === 'refused') rst[rn].why[rr.why] = (rst[rn].why[rr.why] || 0) + 1;
          if (rr.status === 'refused' && a.verbose) console.log(`reader ${rn} refused ${tag}: ${rr.why}`);
          if (rr.status === 'mismatch') {
            failed++;
            console.log(`READER MISMATCH ${tag} reader=${rn} (file ${path})\n  ${desc(table).schema.join('; ')}\n  rows ${table.rows} options ${JSON.stringify(opts)}\n  ${rr.diff}`);
            writeFileSync(join(a.out, `${name}.json`), JSON.stringify(desc(table), big, 1));
            keep = true;
          }
        }
      }
      if (a.coverage && (res.status === 'ok' || res.status === 'mismatch')) await cover(ctx, cov, path);
      for (const n of res.notes) {
        st[n.kind]++;
        if (n.kind === 'duckdbDiffers' || n.kind === 'sourceError') console.log(`note ${tag}: ${n.text}\n  ${desc(table).schema.join('; ')}`);
      }
      if (res.status === 'writer') {
        if (a.verbose) console.log(`writer refused ${tag}: ${res.diff}\n  ${desc(table).schema.join('; ')} ${JSON.stringify(opts)}`);
        continue;
      }
      if (res.status === 'schema') {
        console.log(`duckdb cannot read the schema ${tag}: ${res.diff} (kept ${path})`);
        writeFileSync(join(a.out, `${name}.json`), JSON.stringify(desc(table), big, 1));
        continue;
      }
      if (res.status === 'ok') {
        if (!keep) rmSync(path, { force: true });
        continue;
      }
      failed++;
      console.log(`MISMATCH ${tag} (file ${path})\n  ${desc(table).schema.join('; ')}\n  rows ${table.rows} options ${JSON.stringify(opts)}\n  ${res.diff}`);
      writeFileSync(join(a.out, `${name}.json`), JSON.stringify(desc(table), big, 1));
      if (a.minimize) {
        const small = await minimize(ctx, W, table, opts, join(a.out, `${name}.min.parquet`), res.signature);
        const again = await check(ctx, W, small, opts, join(a.out, `${name}.min.parquet`));
        writeFileSync(join(a.out, `${name}.min.parquet.jsonl`), again.expected ? again.expected.map((l) => l + '\n').join('') : '');
        writeFileSync(join(a.out, `${name}.min.json`), JSON.stringify(desc(small), big, 1));
        console.log(`  minimized to ${small.columns.length} columns and ${small.rows} rows: ${join(a.out, `${name}.min.parquet`)} (expected rows in .jsonl)\n  ${again.diff}`);
      }
    }
    passed += st.ok;
    if (a.coverage) console.log(`writer ${w} wrote codecs ${[...cov.codecs].sort().join(' ')}; encodings ${[...cov.encodings].sort().join(' ')}; ${cov.multiGroup} files of several row groups`);
    if (W.readers) {
      for (const [rn, x] of Object.entries(rst)) {
        const why = Object.entries(x.why).map(([k, v]) => `${v} ${k}`).join('; ');
        console.log(`reader ${rn} of writer ${w}: ${x.ok} identical, ${x.mismatch} mismatched, ${x.refused} refused${why ? ` (${why})` : ''}`);
      }
    }
    const s = ((Date.now() - t0) / 1000).toFixed(1);
    console.log(`writer ${w}: ${st.ok} of ${st.cases} cases identical, ${st.mismatch} mismatched; ${st.writer} refused by the writer, ${st.schema} without a schema DuckDB reads; ${st.viaSource} compared with the source because DuckDB cannot read them; DuckDB differs from the source ${st.duckdbDiffers} times (and ${st.negZero} times only by -0 written as 0) (${s} s)`);
  }
  console.log(`difftest seed=${a.seed} n=${a.n} writers=${a.writers}: ${failed} mismatches in ${((Date.now() - started) / 1000).toFixed(1)} s; files of mismatches in ${a.out}`);
  console.log(`difftest: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

await main();
