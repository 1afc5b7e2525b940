#!/usr/bin/env node
// Run the DuckDB side of the benchmark: warm-up run (answer checked), then N timed runs.
// Copied from ../shared/bench/duckdb/run.mjs; one change: node_modules lives in bench/, one
// level above this kit (bench/package.json), so the client version is read from there.
//
//   node duckdb/run.mjs --db data/duckdb/trades-10m.duckdb [--threads 2] [--runs 5]
//        [--expected expected/trades-10m.json | --write-expected expected/trades-10m.json]
//        [--out results/duckdb-trades-10m-t2.json] [--only t4,t5] [--alt]   (--alt: also run duckdb_variants)
//
// Timing: wall clock around connection.runAndReadAll(sql), i.e. planning + execution +
// materialising the (small) result in JS. Database opened READ_ONLY from its file; the
// warm-up run pulls the columns into DuckDB's buffer pool, so timed runs are warm.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { normalise, compare, digest } from '../lib/check.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf('--' + name); return i >= 0 ? (args[i + 1] && !args[i + 1].startsWith('--') ? args[i + 1] : true) : dflt; };
const dbFile = path.resolve(opt('db', path.join(root, 'data/duckdb/trades-10m.duckdb')));
const base = path.basename(dbFile, '.duckdb'); // e.g. trades-10m
const dataset = opt('dataset', base.split('-')[0]);
const threads = String(opt('threads', '2'));
const runs = Number(opt('runs', 5));
const only = opt('only', null);
const withAlt = !!opt('alt', false);
const spec = JSON.parse(fs.readFileSync(path.join(root, 'queries.json'), 'utf8'));
let qs = spec.queries.filter((q) => q.dataset === dataset);
if (only) qs = qs.filter((q) => only.split(',').includes(q.id));
const expectedFile = opt('expected', null);
const writeExpected = opt('write-expected', null);
const expected = expectedFile ? JSON.parse(fs.readFileSync(path.resolve(expectedFile), 'utf8')) : null;

const inst = await DuckDBInstance.create(dbFile, { access_mode: 'READ_ONLY', threads });
const con = await inst.connect();
const version = (await con.runAndReadAll('SELECT version() AS v')).getRows()[0][0];

async function runOnce(sql) {
  const t = performance.now();
  const reader = await con.runAndReadAll(sql);
  const rows = reader.getRows();
  return { ms: performance.now() - t, rows };
}
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const r2 = (x) => Math.round(x * 100) / 100;

const out = {
  engine: 'duckdb', version, client: '@duckdb/node-api ' + JSON.parse(fs.readFileSync(path.join(root, '..', 'node_modules/@duckdb/node-api/package.json'), 'utf8')).version,
  node: process.version, threads: Number(threads), runs, dataset, db: path.relative(root, dbFile),
  machine: { cpu: os.cpus()[0].model, cores: os.cpus().length, mem_gib: Math.round(os.totalmem() / 2 ** 30) },
  date: new Date().toISOString(), queries: [],
};
const exp = { dataset: base, engine: `duckdb ${version}`, queries: {} };
let failures = 0;
for (const q of qs) {
  const variants = [['duckdb', q.duckdb]];
  if (withAlt && q.duckdb_variants) for (const [k, v] of Object.entries(q.duckdb_variants)) variants.push([k, v]);
  for (const [vname, sql] of variants) {
    const id = vname === 'duckdb' ? q.id : q.id + ':' + vname;
    const first = await runOnce(sql);
    const norm = normalise(q.columns, first.rows, q.sort);
    let check = 'n/a';
    if (expected && expected.queries[q.id]) {
      const errs = compare(q.columns, expected.queries[q.id].rows, norm);
      check = errs.length ? 'MISMATCH: ' + errs.slice(0, 3).join('; ') : 'ok';
      if (errs.length) failures++;
    }
    if (vname === 'duckdb') exp.queries[q.id] = { columns: q.columns, digest: digest(q.columns, norm), rows: norm };
    const times = [];
    for (let k = 0; k < runs; k++) times.push((await runOnce(sql)).ms);
    const rec = { id, query: q.id, variant: vname === 'duckdb' ? 'idiomatic' : vname, title: q.title, first_ms: r2(first.ms), runs_ms: times.map(r2), median_ms: r2(median(times)), min_ms: r2(Math.min(...times)), max_ms: r2(Math.max(...times)), result_rows: norm.length, check };
    out.queries.push(rec);
    console.log(`${id.padEnd(16)} median ${String(rec.median_ms).padStart(9)} ms  min ${String(rec.min_ms).padStart(9)}  max ${String(rec.max_ms).padStart(9)}  first ${String(rec.first_ms).padStart(9)}  rows ${String(norm.length).padStart(5)}  ${check}`);
  }
}
out.peak_rss_mib = Math.round(process.resourceUsage().maxRSS / 1024);
const outFile = opt('out', null);
if (outFile) { fs.mkdirSync(path.dirname(path.resolve(outFile)), { recursive: true }); fs.writeFileSync(path.resolve(outFile), JSON.stringify(out, null, 1) + '\n'); }
if (writeExpected) { fs.mkdirSync(path.dirname(path.resolve(writeExpected)), { recursive: true }); fs.writeFileSync(path.resolve(writeExpected), JSON.stringify(exp, null, 1) + '\n'); }
console.log(`duckdb ${version}, threads=${threads}, peak RSS ${out.peak_rss_mib} MiB${failures ? `, ${failures} MISMATCHES` : ''}`);
con.closeSync(); inst.closeSync();
if (failures) process.exitCode = 1;
