/**
 * Crash safety of cold storage (issue #21; docs/storage.md "Cold storage"): a child process
 * moves partitions to an S3 server (s3rver) and back in a loop; the parent SIGKILLs it at
 * random moments, reopens the root and checks that the table answers exactly as before, that
 * recovery left no local folder for a remote partition, and that one pass of the cold-storage
 * task leaves exactly the objects the committed state names (uploads cut off by the kill and
 * versions moved back are deleted).
 */
import assert from "node:assert/strict";
import S3rver from "s3rver";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { adminSession, Engine, type Value } from "../../engine/mod.ts";
import { rows } from "./_rows.ts";
import {
  CRASH_QUERIES as QUERIES,
  CRASH_TABLE,
  killAgain,
  partitionFolders,
  runAndKill,
  workWindowMs,
} from "./_kill_loop.ts";
import { storageOf } from "../../engine/engine.ts";
import { ColdStorageTask } from "../../engine/cold_storage.ts";

Deno.test({
  name:
    "SIGKILL while moving partitions to the cold store leaves the table answering as before, no leftovers",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "qdb_cold_crash_" });
    const dir = await Deno.makeTempDir({ prefix: "qdb_s3rver_" });
    const server = new S3rver({
      port: 0,
      address: "127.0.0.1",
      silent: true,
      directory: dir,
      configureBuckets: [{ name: "cold", configs: [] }],
    });
    const { port } = await server.run();
    const endpoint = `http://127.0.0.1:${port}`;
    const objectStore = {
      endpoint,
      bucket: "cold",
      region: "us-east-1",
      accessKeyId: "S3RVER",
      secretAccessKey: "S3RVER",
      root: "qdb",
    };
    const client = new S3Client({
      endpoint,
      region: "us-east-1",
      forcePathStyle: true,
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    });
    const open = () =>
      Engine.open({
        root,
        cacheBytes: 64 * 1024 * 1024,
        parallelWorkers: 0,
        coldStorage: { objectStore, checkIntervalMs: 3_600_000 },
      });
    try {
      let engine = await open();
      await engine.execute(CRASH_TABLE, adminSession());
      const before: Value[][][] = [];
      for (const q of QUERIES) before.push(await rows(engine, q));
      const partitionCount = (await rows(engine, "SELECT count() FROM table_partitions('t')"))[0][0];
      await engine.close();
      let commits = 0, remoteSeen = 0;
      const rounds = 5;
      let round = 0;
      for (; killAgain(round, rounds, commits); round++) {
        commits += await runAndKill({
          script: "./_cold_crash_child.ts",
          args: [root, endpoint],
          commitWord: "moved",
          label: "mover",
          workMs: workWindowMs(round, rounds, 100, 1200),
        });
        engine = await open();
        try {
          for (const [i, q] of QUERIES.entries()) {
            assert.deepEqual(await rows(engine, q), before[i], `round ${round}: ${q}`);
          }
          const parts = await rows(engine, "SELECT name, isRemote FROM table_partitions('t')");
          assert.equal(BigInt(parts.length), partitionCount);
          const remote = parts.filter((p) => p[1] === true).map((p) => p[0] as string);
          remoteSeen += remote.length;
          // Recovery: a remote partition has no local folder, every local one exactly one.
          const folders = partitionFolders(root);
          assert.equal(folders.length, parts.length - remote.length, `round ${round}: folders ${folders}`);
          for (const name of remote) {
            assert.ok(!folders.some((f) => f.startsWith(name)), `${name} still local`);
          }
          // One pass of the task: the bucket holds exactly the committed remote partitions.
          await new ColdStorageTask(storageOf(engine), { checkIntervalMs: 3_600_000 }).runOnce();
          const listed = await client.send(new ListObjectsV2Command({ Bucket: "cold", Prefix: "qdb/" }));
          const keys = (listed.Contents ?? []).map((o) => o.Key!).sort();
          assert.equal(keys.length, remote.length, `round ${round}: objects ${keys}`);
          for (const name of remote) {
            assert.ok(keys.some((k) => k.includes(`/${name}.`)), `${name} not in the bucket`);
          }
        } finally {
          await engine.close();
        }
      }
      console.log(
        `${round} kills, ${commits} moves committed in between, ${remoteSeen} remote partitions seen`,
      );
      assert.ok(commits > 0, "no move ever committed: the child is too slow for the kill windows");
    } finally {
      client.destroy();
      (server as unknown as { httpServer: { closeAllConnections(): void } }).httpServer.closeAllConnections();
      await server.close();
      await Deno.remove(dir, { recursive: true });
      await Deno.remove(root, { recursive: true });
    }
  },
});
