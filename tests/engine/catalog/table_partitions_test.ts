/** table_partitions(): diskSize is the bytes of each partition's files on disk (issue 20). */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { rows } from "../_result_rows.ts";

/** Bytes of the files directly inside `dir`. */
function folderBytes(dir: string): number {
  let bytes = 0;
  for (const e of Deno.readDirSync(dir)) if (e.isFile) bytes += Deno.statSync(`${dir}/${e.name}`).size;
  return bytes;
}

Deno.test("table_partitions reports each partition's bytes on disk and their readable size", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_partitions_" });
  const engine = await Engine.open({ root, cacheBytes: 16 * 1024 * 1024 });
  try {
    await engine.execute(
      "CREATE TABLE p (ts TIMESTAMP, v LONG, s VARCHAR) TIMESTAMP(ts) PARTITION BY DAY",
      adminSession(),
    );
    await engine.execute(
      "INSERT INTO p SELECT timestamp_sequence('2024-01-01', 3600000000), x, 'row ' || x FROM long_sequence(30)",
      adminSession(),
    );
    const parts = await rows(
      engine,
      "SELECT name, numRows, diskSize, diskSizeHuman FROM table_partitions('p')",
    );
    assert.deepEqual(parts.map((r) => [r[0], r[1]]), [["2024-01-01", 24n], ["2024-01-02", 6n]]);
    // The partitions are the only folders named after a day anywhere under the table's folder.
    const tableDir = [...Deno.readDirSync(root)].find((e) => e.isDirectory && e.name.startsWith("p"))!.name;
    for (const [name, , bytes, human] of parts) {
      const dirs = [...Deno.readDirSync(`${root}/${tableDir}`)].filter((e) =>
        e.name.startsWith(String(name))
      );
      assert.equal(dirs.length, 1, `one folder for ${name}`);
      const onDisk = folderBytes(`${root}/${tableDir}/${dirs[0].name}`);
      assert.ok(onDisk > 24 * 8, `${name} holds at least its timestamps`);
      assert.equal(bytes, BigInt(onDisk));
      assert.match(String(human), /^\d+\.\d (B|KiB|MiB)$/);
      assert.notEqual(human, "0.0 B");
    }
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a TIMESTAMP_NS table's partition and table bounds are shown in microseconds", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_partitions_ns_" });
  const engine = await Engine.open({ root, cacheBytes: 16 * 1024 * 1024 });
  try {
    await engine.execute(
      "CREATE TABLE n (ts TIMESTAMP_NS, v INT) TIMESTAMP(ts) PARTITION BY DAY",
      adminSession(),
    );
    await engine.execute("INSERT INTO n VALUES ('2024-01-01T00:00:00.123456789Z', 1)", adminSession());
    // 2024-01-01T00:00:00.123456Z in micros (QuestDB TablesFunctionFactoryTest#testTimestampColumnsWithTimestampNs).
    const micros = 1704067200123456n;
    assert.deepEqual(await rows(engine, "SELECT minTimestamp, maxTimestamp FROM table_partitions('n')"), [[
      micros,
      micros,
    ]]);
    assert.deepEqual(
      await rows(
        engine,
        "SELECT table_min_timestamp, table_max_timestamp FROM tables() WHERE table_name = 'n'",
      ),
      [[micros, micros]],
    );
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("table_storage(): per table its WAL flag, partitioning, partition and row counts, and the partitions' bytes", async () => {
  const root = await Deno.makeTempDir({ prefix: "qdb_table_storage_" });
  const engine = await Engine.open({ root, cacheBytes: 16 * 1024 * 1024 });
  try {
    await engine.execute(
      "CREATE TABLE d (ts TIMESTAMP, v LONG) TIMESTAMP(ts) PARTITION BY DAY WAL",
      adminSession(),
    );
    await engine.execute(
      "INSERT INTO d SELECT timestamp_sequence('2024-01-01', 3600000000), x FROM long_sequence(30)",
      adminSession(),
    );
    await engine.execute("CREATE TABLE n (v DOUBLE)", adminSession());
    const storage = await rows(
      engine,
      "SELECT tableName, walEnabled, partitionBy, partitionCount, rowCount, diskSize FROM table_storage() ORDER BY tableName",
    );
    assert.deepEqual(storage.map((r) => r.slice(0, 5)), [["d", true, "DAY", 2n, 30n], [
      "n",
      false,
      "NONE",
      0n,
      0n,
    ]]);
    const parts = await rows(engine, "SELECT sum(diskSize) FROM table_partitions('d')");
    assert.equal(storage[0][5], parts[0][0]);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
});
