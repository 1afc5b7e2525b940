/**
 * Uncompressed chunks read into place (issue #21 "Speed"): partition files store a numeric
 * column chunk uncompressed when LZ4 does not shrink it (random doubles), and the direct
 * decoder reads such a chunk's values straight into the column's memory, checking the page
 * header read separately. The values equal hyparquet's decode; NULLs, compressible columns
 * and chunks of several pages (the header says otherwise than the metadata suggested) take
 * the usual path with the same answers; DuckDB reads the files.
 */
import assert from "node:assert/strict";
import { parquetMetadata, parquetRead } from "hyparquet";
import { T } from "../../engine/base/types.ts";
import { allocVectorData, type Vector, writeValue } from "../../engine/base/values.ts";
import { decodeColumnFast } from "../../engine/parquet/fast_decode.ts";
import { decompressors } from "../../engine/parquet/codecs.ts";
import { PARQUET_EXPORT_DEFAULTS, ParquetResultWriter } from "../../engine/parquet/writer.ts";
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
