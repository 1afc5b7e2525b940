import assert from "node:assert/strict";
import { parquetEncodingError } from "../../../engine/sql/parse_parquet_options.ts";
import { as, parseError } from "./_helpers.ts";
import { parseStatement } from "../../../engine/sql/parser.ts";

const columnParquet = (options: string) => {
  const s = as(parseStatement(`CREATE TABLE t (a INT PARQUET(${options}))`), "createTable");
  return s.columns[0].parquet;
};

Deno.test("parquet options print back in lower case, default alone meaning none", () => {
  assert.equal(
    columnParquet("DELTA_BINARY_PACKED, ZSTD(3), BLOOM_FILTER"),
    "delta_binary_packed, zstd(3), bloom_filter",
  );
  assert.equal(columnParquet("BLOOM_FILTER"), "bloom_filter");
  assert.equal(columnParquet("plain, GZIP(0)"), "plain, gzip(0)");
  assert.equal(columnParquet("default"), "default");
});

Deno.test("parquet options follow QuestDB's grammar and ranges", () => {
  // BLOOM_FILTER comes last; positions as AlterTableAlterColumnTest asserts them.
  assert.equal(parseError("CREATE TABLE t (a INT PARQUET(BLOOM_FILTER, ZSTD))").position, 42);
  assert.match(parseError("CREATE TABLE t (a INT PARQUET(nope))").message, /invalid parquet encoding 'nope'/);
  assert.match(parseError("CREATE TABLE t (a INT PARQUET(plain, zstd(23)))").message, /between 1 and 22/);
  assert.match(
    parseError("CREATE TABLE t (a INT PARQUET(plain, lz5))").message,
    /invalid parquet compression codec/,
  );
});

Deno.test("an encoding the column type does not take is refused at the encoding", () => {
  assert.equal(parquetEncodingError({ text: "PLAIN", pos: 7 }, "SYMBOL")?.position, 7);
  assert.equal(parquetEncodingError({ text: "delta_binary_packed", pos: 0 }, "SHORT"), undefined);
  assert.ok(parquetEncodingError({ text: "byte_stream_split", pos: 0 }, "FLOAT"));
  assert.equal(parquetEncodingError(undefined, "INT"), undefined);
});
