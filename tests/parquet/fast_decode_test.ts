/**
 * The direct Parquet decoder (engine/parquet/fast_decode.ts, issue #21 "Speed"): it decodes
 * what hyparquet decodes, bit for bit, for the column kinds it takes (data pages v1 from
 * DuckDB, v2 from our writer; PLAIN and dictionary; NULLs), converted partitions read through
 * it answer as before, and it declines what it does not handle.
 */
import assert from "node:assert/strict";
import { parquetMetadata, parquetRead } from "hyparquet";
import { adminSession, Engine, readValue, type Value } from "../../engine/mod.ts";
import { decodeColumnFast, readDictionaryIndexes, readHybrid } from "../../engine/parquet/fast_decode.ts";
import { decompressors } from "../../engine/parquet/codecs.ts";
import { parquetColumnDecodes } from "../../engine/storage/parquet_partition.ts";
import { openDuck } from "./duckdb.ts";

async function rows(engine: Engine, sql: string): Promise<Value[][]> {
  const o = await engine.execute(sql, adminSession());
  if (o.kind !== "rows") throw new Error(`expected rows from ${sql}`);
  const out: Value[][] = [];
  for await (const b of o.batches) {
    for (let i = 0; i < b.rowCount; i++) out.push(b.columns.map((c) => readValue(c, i)));
  }
  return out;
}

Deno.test("RLE / bit-packed hybrid: the Parquet specification's examples", () => {
  // Bit-packed, width 3: 0..7 in three bytes; then an RLE run of five 7s (header 5 << 1).
  const out = new Uint32Array(13);
  assert.ok(readHybrid(new Uint8Array([3, 0x88, 0xc6, 0xfa, 10, 7]), 0, 3, 13, out));
  assert.deepEqual([...out], [0, 1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 7, 7]);
  assert.equal(readHybrid(new Uint8Array([3, 0x88]), 0, 3, 13, new Uint32Array(13)), false, "runs out");
});

Deno.test("direct decoder: DuckDB's files (data page v1, dictionaries, NULLs) decode as hyparquet decodes them", async () => {
  const dir = await Deno.makeTempDir({ prefix: "qdb_fastdec_" });
  const duck = await openDuck();
  try {
    const path = `${dir}/d.parquet`;
    await duck.run(
      `COPY (SELECT range::BIGINT - 1000 a, (range % 7)::DOUBLE * 1.5 b,
          CASE WHEN range % 5 = 0 THEN NULL ELSE range::INT END c,
          CASE WHEN range % 4 = 0 THEN NULL ELSE (range % 3)::BIGINT - 2 END e,
          random() f,
          'k' || (range % 3) s
        FROM range(250000)) TO '${path}' (FORMAT parquet, ROW_GROUP_SIZE 100000, COMPRESSION snappy)`,
    );
    const bytes = await Deno.readFile(path);
    const buf = bytes.buffer as ArrayBuffer;
    const metadata = parquetMetadata(buf);
    const n = 250000;
    const read = (s: number, e: number) => new Uint8Array(buf, s, e - s);
    const reference = async (name: string) => {
      const values: unknown[] = [];
      await parquetRead({
        file: buf,
        metadata,
        columns: [name],
        compressors: decompressors,
        onChunk: (c) => values.push(...Array.from(c.columnData as ArrayLike<unknown>)),
      });
      return values;
    };
    const NULL64 = new Uint8Array(new BigInt64Array([-9223372036854775808n]).buffer);
    const NULL32 = new Uint8Array(new Int32Array([-2147483648]).buffer);
    // a: INT64 plain; e: INT64 dictionary with NULLs and -1 (a NaN bit pattern as a double).
    for (const [at, name] of [[0, "a"], [3, "e"]] as const) {
      const out = await decodeColumnFast(read, metadata, at, n, {
        kind: "fixed",
        width: 8,
        nullBytes: NULL64,
      });
      assert.ok(out, `column ${name} decoded directly`);
      const got = new BigInt64Array(out.buffer, out.byteOffset, n);
      const want = await reference(name);
      for (let i = 0; i < n; i++) {
        const w = want[i] === null ? -9223372036854775808n : BigInt(want[i] as bigint);
        if (got[i] !== w) assert.fail(`${name}[${i}]: ${got[i]} != ${w}`);
      }
    }
    for (const [at, name] of [[1, "b"], [4, "f"]] as const) {
      const out = await decodeColumnFast(read, metadata, at, n, {
        kind: "fixed",
        width: 8,
        nullBytes: new Uint8Array(new Float64Array([NaN]).buffer),
      });
      assert.ok(out, `column ${name} decoded directly`);
      assert.deepEqual([...new Float64Array(out.buffer, out.byteOffset, n)], await reference(name));
    }
    const c = await decodeColumnFast(read, metadata, 2, n, { kind: "fixed", width: 4, nullBytes: NULL32 });
    assert.ok(c);
    assert.deepEqual(
      [...new Int32Array(c.buffer, c.byteOffset, n)],
      (await reference("c")).map((v) => v ?? -2147483648),
    );
    const keys = new Map<string, number>();
    const s = await decodeColumnFast(read, metadata, 5, n, {
      kind: "symbol",
      keyOf: (v) => keys.get(v) ?? (keys.set(v, keys.size), keys.size - 1),
    });
    assert.ok(s);
    const names = [...keys.keys()];
    assert.deepEqual(
      [...new Int32Array(s.buffer, s.byteOffset, n)].map((k) => names[k]),
      await reference("s"),
    );
    // Declined: a wrong width, and a row count that does not match the file.
    assert.equal(
      await decodeColumnFast(read, metadata, 0, n, { kind: "fixed", width: 4, nullBytes: NULL32 }),
      undefined,
    );
    assert.equal(
      await decodeColumnFast(read, metadata, 0, n + 1, { kind: "fixed", width: 8, nullBytes: NULL64 }),
      undefined,
    );
  } finally {
    duck.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("direct decoder: converted partitions read through it answer as native ones did", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_fastdec_part_" });
  try {
    let engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024, parallelWorkers: 0 });
    await engine.execute(
      `CREATE TABLE t AS (SELECT timestamp_sequence('2024-01-01', 600000000L) ts,
        rnd_symbol('A','B','C', NULL) sym,
        CASE WHEN x % 9 = 0 THEN NULL ELSE x * 1.25 END d,
        (x % 4) * 0.5 dd,
        CASE WHEN x % 7 = 0 THEN NULL ELSE (x % 3) - 2 END l,
        CASE WHEN x % 4 = 0 THEN NULL ELSE cast(x AS INT) END i,
        cast(x / 3.0 AS FLOAT) f,
        'v' || x vc
      FROM long_sequence(1000)) TIMESTAMP(ts) PARTITION BY DAY`,
      adminSession(),
    );
    const queries = [
      "SELECT * FROM t",
      "SELECT sym, count(), sum(d), sum(dd), min(l), max(l), sum(i), avg(f) FROM t GROUP BY sym ORDER BY sym",
      "SELECT count() FROM t WHERE l = -1",
    ];
    const before = [];
    for (const q of queries) before.push(await rows(engine, q));
    await engine.execute(
      "ALTER TABLE t CONVERT PARTITION TO PARQUET WHERE ts < '2024-01-07'",
      adminSession(),
    );
    await engine.close();
    engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024, parallelWorkers: 0 });
    try {
      const start = { ...parquetColumnDecodes };
      for (const [k, q] of queries.entries()) assert.deepEqual(await rows(engine, q), before[k], q);
      const parts = (await rows(engine, "SELECT count() FROM table_partitions('t') WHERE isParquet"))[0][0];
      assert.equal(parts, 6n);
      // ts, sym, d, dd, l, i, f directly in each of the 6 partitions; vc through hyparquet.
      assert.equal(parquetColumnDecodes.direct - start.direct, 7 * 6);
      assert.equal(parquetColumnDecodes.generic - start.generic, 6);
    } finally {
      await engine.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

/** The hybrid encoding of `values` as the given runs, written the plain way (one bit at a time). */
function encodeHybrid(values: number[], bitWidth: number, runs: ("rle" | "packed")[]): Uint8Array {
  const out: number[] = [];
  const uleb = (v: number) => {
    while (v >= 128) {
      out.push((v % 128) | 128);
      v = Math.floor(v / 128);
    }
    out.push(v);
  };
  let at = 0;
  for (const [k, kind] of runs.entries()) {
    const rest = values.length - at;
    if (kind === "rle") {
      const v = values[at];
      let len = 1;
      while (len < rest && values[at + len] === v && (k < runs.length - 1 ? len < 50 : true)) len++;
      uleb(len * 2);
      for (let b = 0; b < (bitWidth + 7) >> 3; b++) out.push(Math.floor(v / 2 ** (8 * b)) & 255);
      at += len;
    } else {
      const groups = Math.ceil(Math.min(rest, k < runs.length - 1 ? 24 : rest) / 8);
      uleb(groups * 2 + 1);
      const bits: number[] = [];
      for (let i = 0; i < groups * 8; i++) {
        const v = values[at + i] ?? 0;
        for (let b = 0; b < bitWidth; b++) bits.push(Math.floor(v / 2 ** b) & 1);
      }
      for (let i = 0; i < bits.length; i += 8) {
        let byte = 0;
        for (let b = 0; b < 8; b++) byte |= bits[i + b] << b;
        out.push(byte);
      }
      at += Math.min(rest, groups * 8);
    }
  }
  if (at < values.length) throw new Error("runs do not cover the values");
  return new Uint8Array(out);
}

Deno.test("RLE / bit-packed hybrid: every width 1-24, mixed runs, partial last groups, runs ending the buffer", () => {
  let seed = 5;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  for (let bitWidth = 1; bitWidth <= 24; bitWidth++) {
    for (const count of [1, 7, 8, 9, 31, 200]) {
      const values = Array.from(
        { length: count },
        (_, i) => i % 40 < 15 ? 3 % 2 ** bitWidth : Math.floor(rnd() * 2 ** bitWidth),
      );
      const runs: ("rle" | "packed")[] = [];
      for (let i = 0; i < 60; i++) runs.push(i % 3 === 0 ? "rle" : "packed");
      runs.push("packed");
      const buf = encodeHybrid(values, bitWidth, runs);
      const out = new Uint32Array(count);
      assert.ok(readHybrid(buf, 0, bitWidth, count, out), `width ${bitWidth}, ${count} values`);
      assert.deepEqual([...out], values, `width ${bitWidth}, ${count} values`);
      // The same bytes after a prefix: decoding starts at `pos`.
      const shifted = new Uint8Array(buf.length + 3);
      shifted.set(buf, 3);
      const again = new Uint32Array(count);
      assert.ok(readHybrid(shifted, 3, bitWidth, count, again));
      assert.deepEqual([...again], values, `width ${bitWidth} at offset 3`);
    }
  }
});

Deno.test("dictionary indexes looked up while unpacked: as readHybrid then the lookup, 1 and 2 words, out of range refused", () => {
  let seed = 11;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  for (const bitWidth of [1, 3, 5, 8, 10, 13, 17, 24, 26]) {
    const entries = Math.min(2 ** bitWidth, 3000);
    for (const words of [1, 2] as const) {
      const dict = Int32Array.from({ length: entries * words }, (_, i) => i * 7 - 5);
      for (const count of [1, 9, 200, 1001]) {
        const values = Array.from(
          { length: count },
          (_, i) => i % 30 < 12 ? 1 % entries : Math.floor(rnd() * entries),
        );
        const runs: ("rle" | "packed")[] = [];
        for (let i = 0; i < 200; i++) runs.push(i % 3 === 0 ? "rle" : "packed");
        runs.push("packed");
        const buf = encodeHybrid(values, bitWidth, runs);
        const out = new Int32Array(3 + count * words).fill(99);
        const what = `width ${bitWidth}, ${words} words, ${count} values`;
        assert.ok(readDictionaryIndexes(buf, 0, bitWidth, count, dict, words, out, 3), what);
        const expected = values.flatMap((v) => words === 1 ? [dict[v]] : [dict[2 * v], dict[2 * v + 1]]);
        assert.deepEqual([...out.subarray(3)], expected, what);
        assert.deepEqual([...out.subarray(0, 3)], [99, 99, 99], `${what}: nothing before 'at'`);
        // An index past the dictionary's end is refused (the caller falls back), not read as 0.
        const small = dict.subarray(0, Math.max(...values) * words);
        assert.equal(readDictionaryIndexes(buf, 0, bitWidth, count, small, words, out, 3), false, what);
      }
    }
  }
  assert.equal(
    readDictionaryIndexes(new Uint8Array([3, 0x88]), 0, 3, 13, new Int32Array(8), 1, new Int32Array(13), 0),
    false,
  );
});

Deno.test("direct decoder: pages with and without NULLs in one column, decoded into the cache, answer as native", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_fastdec_pages_" });
  try {
    let engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024, parallelWorkers: 0 });
    // 250,000 rows in one day (the converted partition; the row of 2024-01-05 stays active):
    // row groups of 100,000 (the VARCHAR column keeps them at that size); the first without
    // NULLs (its pages skip the levels and decompress in place), the later ones with NULLs
    // here and there.
    await engine.execute(
      `CREATE TABLE t AS (SELECT timestamp_sequence('2024-01-01', 100000L) ts,
        CASE WHEN x > 120000 AND x % 11 = 0 THEN NULL ELSE x * 0.5 END d,
        CASE WHEN x > 230000 AND x % 13 = 0 THEN NULL ELSE x END l,
        rnd_symbol('A','B','C') s, CAST(x % 97 AS VARCHAR) v
      FROM long_sequence(250000)) TIMESTAMP(ts) PARTITION BY DAY`,
      adminSession(),
    );
    await engine.execute("INSERT INTO t VALUES ('2024-01-05', 1.0, 1, 'A', 'x')", adminSession());
    const queries = [
      "SELECT count(), count(d), sum(d), count(l), sum(l), min(ts), max(ts) FROM t",
      "SELECT s, count(), sum(d) FROM t GROUP BY s ORDER BY s",
      "SELECT * FROM t WHERE ts IN '2024-01-01T00:03:20;1s' OR d IS NULL LIMIT 30",
    ];
    const before = [];
    for (const q of queries) before.push(await rows(engine, q));
    await engine.execute(
      "ALTER TABLE t CONVERT PARTITION TO PARQUET WHERE ts < '2024-01-05'",
      adminSession(),
    );
    await engine.close();
    engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024, parallelWorkers: 0 });
    try {
      const start = { ...parquetColumnDecodes };
      for (const [k, q] of queries.entries()) assert.deepEqual(await rows(engine, q), before[k], q);
      assert.equal(parquetColumnDecodes.direct - start.direct, 4, "ts, d, l, s of the converted day");
      assert.equal(parquetColumnDecodes.generic - start.generic, 1, "v, var-size, through hyparquet");
    } finally {
      await engine.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
