/**
 * Chooses the Parquet library by measurement (issue #21): writes and reads N rows × 5 columns
 * (INT64 timestamp, low-cardinality string, DOUBLE, INT64, INT32) with each candidate and
 * codec, and prints ms and rows/s. Run: deno run -A --no-lock bench/parquet_libs.ts [rows]
 * Results are recorded in docs/parquet.md.
 */
import { ByteWriter, ParquetWriter } from "hyparquet-writer";
import { type CompressionCodec, parquetMetadata, parquetRead, type SchemaElement } from "hyparquet";
import { compressors as hyDecompressors } from "hyparquet-compressors";
import { lz4CompressBlock } from "../engine/parquet/lz4_block.ts";
import { zstdCompressSync, zstdDecompressSync } from "node:zlib";

// The candidate not chosen stays out of deno.json and deno.lock: apache-arrow depends on an
// @types/node whose stream and crypto types, once in the lock, break type-checking of the
// project's own code. Loaded at run time only (hence --no-lock above), pinned here.
const PARQUET_WASM = "npm:parquet-wasm@0.8.0";
const APACHE_ARROW = "npm:apache-arrow@21.2.0";
// deno-lint-ignore no-explicit-any
const pw: any = await import(PARQUET_WASM);
// deno-lint-ignore no-explicit-any
const arrow: any = await import(APACHE_ARROW);

const N = Number(Deno.args[0] ?? 1_000_000);
const ts = new BigInt64Array(N);
const sym = new Array<string>(N);
const price = new Float64Array(N);
const qty = new BigInt64Array(N);
const id = new Int32Array(N);
const syms = Array.from({ length: 50 }, (_, i) => `SYM${i}`);
let seed = 1;
const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
for (let i = 0; i < N; i++) {
  ts[i] = 1_700_000_000_000_000n + BigInt(i) * 1000n;
  sym[i] = syms[i % 50];
  price[i] = Math.round(rnd() * 100000) / 100;
  qty[i] = BigInt(Math.floor(rnd() * 1000));
  id[i] = i;
}

function time<T>(f: () => T): [T, number] {
  const t = performance.now();
  const r = f();
  return [r, performance.now() - t];
}
async function timeAsync<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const r = await f();
  return [r, performance.now() - t];
}
const rows: string[] = [];
function report(lib: string, op: string, codec: string, ms: number, bytes?: number) {
  const line = `| ${lib} | ${op} | ${codec} | ${ms.toFixed(0)} | ${(N / ms * 1000 / 1e6).toFixed(2)} | ${
    bytes ? (bytes / 1e6).toFixed(1) : ""
  } |`;
  rows.push(line);
  console.log(line);
}

// ---- hyparquet-writer + hyparquet ----
// ZSTD through the runtime's own zstd (node:zlib, native in Deno), level 3 for the measurement.
const writeCompressors = {
  LZ4_RAW: lz4CompressBlock,
  ZSTD: (b: Uint8Array) => new Uint8Array(zstdCompressSync(b, { params: { 100: 3 } })),
};
const readDecompressors = {
  ...hyDecompressors,
  ZSTD: (b: Uint8Array) => new Uint8Array(zstdDecompressSync(b)),
};
const hySchema = [
  { name: "root", num_children: 5 },
  {
    name: "ts",
    type: "INT64",
    repetition_type: "OPTIONAL",
    logical_type: { type: "TIMESTAMP", isAdjustedToUTC: true, unit: "MICROS" },
  },
  { name: "sym", type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "OPTIONAL" },
  { name: "price", type: "DOUBLE", repetition_type: "OPTIONAL" },
  { name: "qty", type: "INT64", repetition_type: "OPTIONAL" },
  { name: "id", type: "INT32", repetition_type: "OPTIONAL" },
];
function hyWrite(codec: string): Uint8Array {
  const writer = new ByteWriter();
  const pqw = new ParquetWriter({
    writer,
    schema: hySchema as SchemaElement[],
    codec: codec as CompressionCodec,
    compressors: writeCompressors,
  });
  const G = 100_000;
  for (let s = 0; s < N; s += G) {
    const e = Math.min(N, s + G);
    pqw.write({
      columnData: [
        { name: "ts", data: ts.subarray(s, e) },
        { name: "sym", data: sym.slice(s, e) },
        { name: "price", data: price.subarray(s, e) },
        { name: "qty", data: qty.subarray(s, e) },
        { name: "id", data: id.subarray(s, e) },
      ],
      rowGroupSize: G,
    });
  }
  pqw.finish();
  return new Uint8Array(writer.getBuffer());
}
async function hyRead(buf: Uint8Array): Promise<number> {
  const ab = buf.slice().buffer as ArrayBuffer;
  let n = 0;
  await parquetRead({
    file: ab,
    compressors: readDecompressors,
    parsers: { timestampFromMicroseconds: (v: bigint) => v } as never,
    onChunk: (c: { columnName: string; rowStart: number; rowEnd: number }) => {
      if (c.columnName === "id") n += c.rowEnd - c.rowStart;
    },
  });
  return n;
}

// ---- parquet-wasm + apache-arrow ----
function arrowTable(): unknown {
  return new arrow.Table({
    ts: arrow.makeVector({
      type: new arrow.TimestampMicrosecond("UTC"),
      data: ts,
    } as never),
    sym: arrow.vectorFromArray(sym, new arrow.Utf8()),
    price: arrow.makeVector(price),
    qty: arrow.makeVector(qty),
    id: arrow.makeVector(id),
  });
}
function pwWrite(codec: number): Uint8Array {
  const t = arrowTable();
  const ipc = arrow.tableToIPC(t, "stream");
  const wt = pw.Table.fromIPCStream(ipc);
  const props = new pw.WriterPropertiesBuilder().setCompression(codec).setMaxRowGroupSize(100_000).build();
  return pw.writeParquet(wt, props);
}
function pwRead(buf: Uint8Array): number {
  const wt = pw.readParquet(buf);
  const t = arrow.tableFromIPC(wt.intoIPCStream());
  // touch every value of one numeric column so the copy out of WASM is counted
  const c = t.getChild("price")!;
  let s = 0;
  for (const chunk of c.data) s += (chunk.values as Float64Array).length;
  return s;
}

console.log(`| library | op | codec | ms | Mrows/s | MB |`);
console.log(`|---|---|---|---|---|---|`);
for (const codec of ["UNCOMPRESSED", "SNAPPY", "LZ4_RAW", "ZSTD"]) {
  hyWrite(codec); // warm-up
  const [buf, ms] = time(() => hyWrite(codec));
  report("hyparquet-writer 0.17.0", "write", codec, ms, buf.length);
  await hyRead(buf);
  const [n, rms] = await timeAsync(() => hyRead(buf));
  if (n !== N) throw new Error(`hyparquet read ${n} rows`);
  report("hyparquet 1.31.5", "read", codec, rms);
  const meta = parquetMetadata(buf.slice().buffer as ArrayBuffer);
  if (codec === "LZ4_RAW") {
    // cross-check: parquet-wasm (arrow-rs) reads hyparquet-writer's LZ4_RAW file
    if (pwRead(buf) !== N) throw new Error("parquet-wasm could not read hyparquet-writer's LZ4_RAW file");
    console.log(`  (${meta.row_groups.length} row groups; arrow-rs reads it back)`);
  }
}
for (
  const [name, codec] of [["UNCOMPRESSED", pw.Compression.UNCOMPRESSED], ["SNAPPY", pw.Compression.SNAPPY], [
    "LZ4_RAW",
    pw.Compression.LZ4_RAW,
  ], ["ZSTD", pw.Compression.ZSTD]] as const
) {
  pwWrite(codec);
  const [buf, ms] = time(() => pwWrite(codec));
  report("parquet-wasm 0.8.0 + apache-arrow", "write", name, ms, buf.length);
  pwRead(buf);
  const [n, rms] = time(() => pwRead(buf));
  if (n !== N) throw new Error(`parquet-wasm read ${n} rows`);
  report("parquet-wasm 0.8.0 + apache-arrow", "read", name, rms);
  const [hn, hms] = await timeAsync(() => hyRead(buf));
  if (hn !== N) throw new Error(`hyparquet read ${hn} rows of parquet-wasm's file`);
  report("hyparquet 1.31.5 (parquet-wasm file)", "read", name, hms);
}
