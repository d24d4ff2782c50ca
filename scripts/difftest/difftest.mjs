// Differential test of pqcodec against real Parquet writers.
//
//   node difftest.mjs --pqcodec BIN [--seed S] [--n N] [--writers duckdb,arrow-rs,...] [--out DIR] [--case K]
//
// For each writer and case k in [0, N): draw a random table and writer
// options from (seed, writer, k), write the file with the writer, read it
// with DuckDB rendered as `pqcodec cat` prints it (render.mjs), read it with
// `pqcodec cat`, and compare. A mismatch prints the seed and case and keeps
// the file and its description under DIR; the exit status is 1 if any case
// mismatched.
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync, rmSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { rng, randomTable, typeString } from './gen.mjs';
import { schemaTree, row } from './render.mjs';
import * as duckdbW from './writers/duckdb.mjs';
import * as arrowW from './writers/arrow.mjs';

const run = promisify(execFile);

function args() {
  const a = { seed: '1', n: 20, writers: 'duckdb,arrow-rs,polars,arrow-go,parquet-go', out: '', case: null, pqcodec: '', keep: false };
  const v = process.argv.slice(2);
  for (let i = 0; i < v.length; i++) {
    const k = v[i].replace(/^--/, '');
    if (k === 'keep') { a.keep = true; continue; }
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
};

const big = (k, v) => (typeof v === 'bigint' ? v.toString() : v);

async function expected(ctx, path) {
  const s = await ctx.rconn.runAndReadAll(`SELECT * FROM parquet_schema('${path}')`);
  const root = schemaTree(s.getRowObjects());
  const r = await ctx.rconn.runAndReadAll(`SELECT * FROM read_parquet('${path}')`);
  return r.getRows().map((vals) => row(root, vals));
}

async function actual(ctx, path) {
  const { stdout } = await run(ctx.pqcodec, ['cat', path], { maxBuffer: 1 << 30 });
  return stdout === '' ? [] : stdout.replace(/\n$/, '').split('\n');
}

async function main() {
  const a = args();
  mkdirSync(a.out, { recursive: true });
  const inst = await DuckDBInstance.create(':memory:');
  const ctx = { wconn: await inst.connect(), rconn: await inst.connect(), pqcodec: a.pqcodec, out: a.out };
  await ctx.rconn.run('SET threads = 1');
  const stats = {};
  let failed = 0;
  const started = Date.now();
  for (const w of a.writers.split(',').filter(Boolean)) {
    const W = WRITERS[w];
    if (!W) throw new Error(`unknown writer ${w} (have ${Object.keys(WRITERS).join(', ')})`);
    const st = (stats[w] = { cases: 0, ok: 0, mismatch: 0, writerError: 0, duckdbError: 0, ms: 0 });
    const t0 = Date.now();
    const cases = a.case != null ? [Number(a.case)] : [...Array(a.n).keys()];
    for (const k of cases) {
      st.cases++;
      const r = rng(a.seed, w, k);
      const table = randomTable(r, W.caps);
      const opts = W.options(r);
      const name = `${w}-${a.seed}-${k}`;
      const path = join(a.out, `${name}.parquet`);
      const desc = { seed: a.seed, writer: w, case: k, rows: table.rows, options: opts, schema: table.columns.map((c) => `${c.name}: ${typeString(c.type)}`) };
      const tag = `seed=${a.seed} writer=${w} case=${k}`;
      try {
        await W.write(ctx, table, opts, path);
      } catch (e) {
        st.writerError++;
        console.log(`writer error ${tag}: ${String(e.message || e).split('\n')[0].slice(0, 300)}\n  ${desc.schema.join('; ')} ${JSON.stringify(opts)}`);
        continue;
      }
      let want;
      try {
        want = await expected(ctx, path);
      } catch (e) {
        st.duckdbError++;
        console.log(`duckdb cannot read ${tag}: ${String(e.message || e).split('\n')[0].slice(0, 300)} (kept ${path})`);
        writeFileSync(join(a.out, `${name}.json`), JSON.stringify(desc, big, 1));
        continue;
      }
      let got, err = null;
      try {
        got = await actual(ctx, path);
      } catch (e) {
        err = (e.stderr || e.message || String(e)).trim();
      }
      let diff = null;
      if (err) diff = `pqcodec: ${err}`;
      else if (got.length !== want.length || got.some((l, i) => l !== want[i])) {
        const i = got.findIndex((l, i) => l !== want[i]);
        const at = i < 0 ? Math.min(got.length, want.length) : i;
        diff = `rows: pqcodec ${got.length}, duckdb ${want.length}; first difference at row ${at}:\n  pqcodec: ${(got[at] ?? '<none>').slice(0, 600)}\n  duckdb:  ${(want[at] ?? '<none>').slice(0, 600)}`;
      }
      if (diff) {
        st.mismatch++;
        failed++;
        writeFileSync(join(a.out, `${name}.json`), JSON.stringify(desc, big, 1));
        console.log(`MISMATCH ${tag} (file ${path})\n  ${desc.schema.join('; ')}\n  rows ${table.rows} options ${JSON.stringify(opts)}\n  ${diff}`);
      } else {
        st.ok++;
        if (!a.keep) rmSync(path, { force: true });
      }
    }
    st.ms = Date.now() - t0;
    console.log(`writer ${w}: ${st.ok} of ${st.cases} cases identical, ${st.mismatch} mismatched, ${st.writerError} refused by the writer, ${st.duckdbError} unreadable by DuckDB (${(st.ms / 1000).toFixed(1)} s)`);
  }
  console.log(`difftest seed=${a.seed} n=${a.n}: ${failed} mismatches in ${((Date.now() - started) / 1000).toFixed(1)} s; files of mismatches in ${a.out}`);
  process.exit(failed ? 1 : 0);
}

await main();
