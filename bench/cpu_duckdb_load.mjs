// Loads the kit's generated `cpu` dataset (CSV parts + manifest.json) into a DuckDB file and
// checks it against the generator's integer-exact sums, like the kit's duckdb/load.mjs does for
// `trades` (that loader takes its DDL from the kit's queries.json, which has none for `cpu`; the
// DDL here comes from bench/cpu_queries.json).
//
//   node bench/cpu_duckdb_load.mjs <dataDir> --db <file> [--threads 2]
//
// @duckdb/node-api is resolved from bench/kit/node_modules (where `deno task bench` installs it).
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import * as D from "./kit/lib/datasets.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "kit", "package.json"));
const { DuckDBInstance } = require("@duckdb/node-api");

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf("--" + name);
  return i >= 0 ? args[i + 1] : dflt;
};
const dataDir = path.resolve(args[0]);
const dbFile = path.resolve(opt("db"));
const manifest = JSON.parse(fs.readFileSync(path.join(dataDir, "manifest.json"), "utf8"));
const spec = JSON.parse(fs.readFileSync(path.join(here, "cpu_queries.json"), "utf8"));
const quote = (xs) => xs.map((s) => `'${s}'`).join(", ");
const ddl = spec.ddl.duckdb.map((s) =>
  s.replace("@HOSTS@", quote(D.HOSTS)).replace("@REGIONS@", quote(D.REGIONS))
);

fs.mkdirSync(path.dirname(dbFile), { recursive: true });
for (const f of [dbFile, dbFile + ".wal"]) if (fs.existsSync(f)) fs.rmSync(f);
const inst = await DuckDBInstance.create(dbFile, { threads: String(opt("threads", "2")) });
const con = await inst.connect();
const rowsOf = async (sql) => (await con.runAndReadAll(sql)).getRowObjects();
const started = performance.now();
for (const s of ddl) await con.run(s);

const SQLTYPE = { timestamp: "TIMESTAMP", symbol: "VARCHAR", double: "DOUBLE", long: "BIGINT" };
const report = { db: dbFile, dataset: manifest.dataset, rows: manifest.rows, tables: {} };
for (const [table, info] of Object.entries(manifest.tables)) {
  const files = info.parts.map((p) => `'${path.join(dataDir, p)}'`).join(", ");
  const cols = D.columnsOf(table);
  const colSpec = "{" + cols.map(([n, t]) => `'${n}': '${SQLTYPE[t]}'`).join(", ") + "}";
  const t1 = performance.now();
  await con.run(
    `INSERT INTO ${table} SELECT ${
      cols.map(([n]) => n).join(", ")
    } FROM read_csv([${files}], header = true, ` +
      `delim = ',', quote = '', escape = '', columns = ${colSpec}, timestampformat = '%Y-%m-%dT%H:%M:%S.%fZ')`,
  );
  const loadMs = performance.now() - t1;
  // The generator sums doubles as integers scaled by 100 (every cpu double has two decimals).
  const sums = cols.filter(([, t]) => t !== "timestamp").map(([n, t]) => {
    if (t === "symbol") return `sum(enum_code(${n}))::BIGINT AS "${n}_index"`;
    if (t === "long") return `sum(${n})::BIGINT AS "${n}"`;
    return `sum(round(${n} * 100))::BIGINT AS "${n}_x100"`;
  });
  const [got] = await rowsOf(
    `SELECT count(*)::BIGINT AS rows, epoch_us(min(ts)) AS min_ts, epoch_us(max(ts)) AS max_ts, ${
      sums.join(", ")
    } FROM ${table}`,
  );
  const errors = [];
  if (Number(got.rows) !== info.rows) errors.push(`rows ${got.rows} != ${info.rows}`);
  if (Number(got.min_ts) !== info.min_ts) errors.push(`min_ts ${got.min_ts} != ${info.min_ts}`);
  if (Number(got.max_ts) !== info.max_ts) errors.push(`max_ts ${got.max_ts} != ${info.max_ts}`);
  for (const [k, v] of Object.entries(info.sums)) {
    if (Number(got[k]) !== v) errors.push(`${k} ${got[k]} != ${v}`);
  }
  report.tables[table] = {
    rows: info.rows,
    load_ms: Math.round(loadMs),
    checksums_ok: errors.length === 0,
    errors,
  };
  console.log(
    `${table}: ${info.rows} rows in ${(loadMs / 1000).toFixed(1)} s; checksums ${
      errors.length ? "MISMATCH " + errors.join("; ") : "ok"
    }`,
  );
  if (errors.length) process.exitCode = 1;
}
await con.run("CHECKPOINT");
report.total_s = +((performance.now() - started) / 1000).toFixed(1);
console.log(JSON.stringify(report));
con.closeSync();
inst.closeSync();
