/**
 * Uncompressed chunks read into place (issue #21 "Speed"): partition files store a numeric
 * column chunk uncompressed when LZ4 does not shrink it (random doubles), and the direct
 * decoder reads such a chunk's values straight into the column's memory, checking the page
 * header read separately. The values equal hyparquet's decode; NULLs, compressible columns
 * and chunks of several pages (the header says otherwise than the metadata suggested) take
 * the usual path with the same answers; DuckDB reads the files. Partition files of fixed-size
 * columns have row groups of up to 1,000,000 rows (one read per column chunk).
 */
import assert from "node:assert/strict";
import { parquetMetadata, parquetRead } from "hyparquet";
import { T } from "../../engine/base/types.ts";
import { allocVectorData, type Vector, writeValue } from "../../engine/base/values.ts";
import { decodeColumnFast } from "../../engine/parquet/fast_decode.ts";
import { decompressors } from "../../engine/parquet/codecs.ts";
import { PARQUET_EXPORT_DEFAULTS, ParquetResultWriter } from "../../engine/parquet/writer.ts";
import { parquetColumnDecodes, partitionRowGroupRows } from "../../engine/storage/parquet_partition.ts";
import { adminSession, Engine } from "../../engine/mod.ts";
import { rows } from "./_rows.ts";
import { openDuck } from "./duckdb.ts";

const N = 250_000;

function fileOf(dataPageSize: number): Uint8Array {
  let seed = 7; // xorshift32: random doubles LZ4 cannot shrink
  const rnd = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 4294967296;
  };
  const rnd53 = () => rnd() + rnd() / 4294967296; // every mantissa bit random, as rnd_double()
  const cols: Vector[] = [T.DOUBLE, T.DOUBLE, T.DOUBLE, T.LONG].map((type) => ({
    type,
    data: allocVectorData(type, N),
  }));
  for (let i = 0; i < N; i++) {
    writeValue(T.DOUBLE, cols[0].data, i, rnd53() * 100); // d: random, no NULL
    writeValue(T.DOUBLE, cols[1].data, i, i % 1000 === 7 ? null : rnd53()); // dn: random, NULLs
    writeValue(T.DOUBLE, cols[2].data, i, (i % 7) * 1.5); // c: compressible
    writeValue(T.LONG, cols[3].data, i, BigInt(Math.floor(rnd() * 2 ** 31)) * 4294967296n + BigInt(i)); // l
  }
  const writer = new ParquetResultWriter(
    ["d", "dn", "c", "l"].map((name, k) => ({ name, type: cols[k].type })),
    -1,
    { ...PARQUET_EXPORT_DEFAULTS, dataPageSize, uncompressedWhenNoGain: true },
  );
  const head = writer.add({ rowCount: N, columns: cols });
  const tail = writer.finish();
  const out = new Uint8Array(head.length + tail.length);
  out.set(head);
  out.set(tail, head.length);
  return out;
}

async function reference(buf: ArrayBuffer, name: string): Promise<unknown[]> {
  const values: unknown[] = [];
  await parquetRead({
    file: buf,
    columns: [name],
    compressors: decompressors,
    onChunk: (c) => values.push(...Array.from(c.columnData as ArrayLike<unknown>)),
  });
  return values;
}

const NULL64 = new Uint8Array(new BigInt64Array([-9223372036854775808n]).buffer);
const NAN64 = new Uint8Array(new Float64Array([NaN]).buffer);

Deno.test("uncompressed chunks: written where LZ4 does not shrink, read into place, equal to hyparquet's decode", async () => {
  for (
    const [pageSize, pagesPerChunk] of [[PARQUET_EXPORT_DEFAULTS.dataPageSize, "one"], [65536, "several"]]
  ) {
    const bytes = fileOf(pageSize as number);
    const buf = bytes.buffer as ArrayBuffer;
    const metadata = parquetMetadata(buf);
    assert.equal(metadata.row_groups.length, 3);
    const codecs = metadata.row_groups[0].columns.map((c) => c.meta_data!.codec);
    assert.deepEqual(codecs, ["UNCOMPRESSED", "UNCOMPRESSED", "LZ4_RAW", "UNCOMPRESSED"], "codec per chunk");
    const read = (s: number, e: number) => bytes.slice(s, e);
    for (const [at, name] of [[0, "d"], [1, "dn"], [2, "c"], [3, "l"]] as const) {
      let direct = 0;
      const readInto = (s: number, e: number, target: Uint8Array) => {
        direct++;
        target.set(bytes.subarray(s, e));
        return Promise.resolve();
      };
      // A destination already holding other bytes: every value must be written.
      const into = new Uint8Array(N * 8).fill(0xab);
      const target = { kind: "fixed", width: 8, nullBytes: name === "l" ? NULL64 : NAN64 } as const;
      const out = await decodeColumnFast(read, metadata, at, N, target, { into, readInto });
      assert.ok(out === into, `${name}: decoded into the given buffer`);
      const want = await reference(buf, name);
      if (name === "l") {
        const got = new BigInt64Array(out.buffer, out.byteOffset, N);
        for (let i = 0; i < N; i++) {
          if (got[i] !== want[i]) {
            assert.fail(`${name}[${i}]: ${got[i]} != ${want[i]}`);
          }
        }
      } else {
        const got = new Float64Array(out.buffer, out.byteOffset, N);
        for (let i = 0; i < N; i++) {
          const w = want[i] === null ? NaN : want[i];
          if (!Object.is(got[i], w)) assert.fail(`${name}[${i}] (${pagesPerChunk} page): ${got[i]} != ${w}`);
        }
      }
      // Direct reads: the chunks of one uncompressed page without NULLs (tried, then refused by
      // the page header, when a chunk has several pages); never NULLs or compressed chunks.
      const expected = name === "d" || name === "l" ? 3 : 0;
      assert.equal(direct, expected, `${name}, ${pagesPerChunk} page(s) per chunk: direct reads`);
    }
  }
});

Deno.test("uncompressed chunks: DuckDB reads the file with per-chunk codecs", async () => {
  const dir = await Deno.makeTempDir({ prefix: "qdb_direct_read_" });
  const duck = await openDuck();
  try {
    const bytes = fileOf(PARQUET_EXPORT_DEFAULTS.dataPageSize);
    await Deno.writeFile(`${dir}/f.parquet`, bytes);
    const buf = bytes.buffer as ArrayBuffer;
    const codecs = await duck.rows(
      `SELECT DISTINCT path_in_schema p, compression c FROM parquet_metadata('${dir}/f.parquet') ORDER BY 1`,
    );
    assert.deepEqual(codecs.map((r) => `${r.p}:${r.c}`), [
      "c:LZ4_RAW",
      "d:UNCOMPRESSED",
      "dn:UNCOMPRESSED",
      "l:UNCOMPRESSED",
    ]);
    const [got] = await duck.rows(
      `SELECT count(*)::INT n, count(dn)::INT ndn, sum(d) sd, sum(dn) sdn, sum(c) sc, sum(l)::VARCHAR sl
       FROM read_parquet('${dir}/f.parquet')`,
    );
    const sum = (xs: unknown[]) => xs.reduce<number>((a, x) => a + (x === null ? 0 : x as number), 0);
    const d = await reference(buf, "d"), dn = await reference(buf, "dn"), c = await reference(buf, "c");
    const l = await reference(buf, "l");
    assert.equal(got.n, N);
    assert.equal(got.ndn, dn.filter((x) => x !== null).length);
    assert.ok(Math.abs((got.sd as number) - sum(d)) < 1e-6 * Math.abs(sum(d)));
    assert.ok(Math.abs((got.sdn as number) - sum(dn)) < 1e-6 * Math.abs(sum(dn)));
    assert.equal(got.sc, sum(c));
    assert.equal(got.sl, String(l.reduce<bigint>((a, x) => a + (x as bigint), 0n)));
  } finally {
    duck.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("partition row groups: 100,000 rows with var-size columns, else up to 1,000,000 within 5M cells, split evenly", () => {
  const fixed5 = [T.TIMESTAMP, T.SYMBOL, T.DOUBLE, T.DOUBLE, T.LONG];
  assert.equal(partitionRowGroupRows(fixed5, 864_000), 864_000, "a day of 0.1 s rows: one group");
  assert.equal(partitionRowGroupRows(fixed5, 2_500_000), 833_334, "three even groups");
  assert.equal(partitionRowGroupRows(fixed5, 10), 10);
  assert.equal(partitionRowGroupRows([...fixed5, T.VARCHAR], 864_000), 100_000, "var-size: QuestDB's size");
  const wide = Array.from({ length: 60 }, () => T.DOUBLE);
  assert.equal(partitionRowGroupRows(wide, 250_000), 83_334, "60 columns: 100,000 at most, split evenly");
  const ten = Array.from({ length: 10 }, () => T.INT);
  assert.equal(partitionRowGroupRows(ten, 864_000), 432_000, "10 columns: 500,000 at most");
});

Deno.test("converted partition: one row group, random doubles uncompressed and read into place, same answers, DuckDB reads it", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_direct_part_" });
  const duck = await openDuck();
  try {
    let engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024, parallelWorkers: 0 });
    await engine.execute(
      `CREATE TABLE t AS (SELECT timestamp_sequence('2024-01-01', 200000L) ts, rnd_symbol('A','B','C') s,
        rnd_double() * 100 price, CASE WHEN x % 1000 = 0 THEN NULL ELSE rnd_double() END p2, x l
      FROM long_sequence(500000)) TIMESTAMP(ts) PARTITION BY DAY`,
      adminSession(),
    );
    const queries = [
      "SELECT count(), sum(price), min(price), max(price), count(p2), sum(p2), sum(l) FROM t",
      "SELECT s, count(), avg(price), max(p2) FROM t GROUP BY s ORDER BY s",
      "SELECT * FROM t WHERE ts IN '2024-01-01T10:00:00;2s'",
    ];
    const before = [];
    for (const q of queries) before.push(await rows(engine, q));
    await engine.execute(
      "ALTER TABLE t CONVERT PARTITION TO PARQUET WHERE ts < '2024-01-02'",
      adminSession(),
    );
    await engine.close();
    engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024, parallelWorkers: 0 });
    try {
      const start = { ...parquetColumnDecodes };
      for (const [k, q] of queries.entries()) assert.deepEqual(await rows(engine, q), before[k], q);
      assert.equal(parquetColumnDecodes.generic - start.generic, 0);
      assert.equal(
        parquetColumnDecodes.inPlaceReads - start.inPlaceReads,
        1,
        "price: one chunk read into place",
      );
    } finally {
      await engine.close();
    }
    const files = [];
    for await (const e of Deno.readDir(`${root}`)) {
      if (!e.isDirectory || !e.name.startsWith("t~")) continue;
      for await (const p of Deno.readDir(`${root}/${e.name}`)) {
        if (p.isDirectory && p.name.startsWith("2024-01-01")) {
          files.push(`${root}/${e.name}/${p.name}/data.parquet`);
        }
      }
    }
    assert.equal(files.length, 1);
    const meta = await duck.rows(
      `SELECT path_in_schema p, compression c, row_group_num_rows::INT n FROM parquet_metadata('${
        files[0]
      }') ORDER BY 1`,
    );
    assert.deepEqual(meta.map((r) => `${r.p}:${r.c}:${r.n}`), [
      "l:LZ4_RAW:432000",
      "p2:UNCOMPRESSED:432000",
      "price:UNCOMPRESSED:432000",
      "s:LZ4_RAW:432000",
      "ts:LZ4_RAW:432000",
    ]);
    const [d] = await duck.rows(`SELECT count(*)::INT n, count(p2)::INT n2 FROM read_parquet('${files[0]}')`);
    assert.deepEqual(d, { n: 432000, n2: 432000 - 432 });
  } finally {
    duck.close();
    await Deno.remove(root, { recursive: true });
  }
});
