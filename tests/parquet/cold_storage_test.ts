/**
 * Cold storage (issue #21; docs/storage.md "Cold storage") against a real S3 API server on
 * this machine (s3rver), checked with the standard client (@aws-sdk/client-s3): partitions
 * moved to the bucket answer every query as before, also after a restart (read back by range
 * requests), table_partitions() shows them remote, the objects are in the bucket with the
 * committed size, the background task moves partitions by age and deletes objects no commit
 * names, and an unreachable store gives a clear error.
 */
import assert from "node:assert/strict";
import S3rver from "s3rver";
import { HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { adminSession, Engine, type SqlError } from "../../engine/mod.ts";
import { rows } from "./_rows.ts";
import { answers, failure } from "./_tables.ts";
import { storageOf } from "../../engine/engine.ts";
import { ColdStorageTask } from "../../engine/cold_storage.ts";
import type { ObjectStoreConfig } from "../../engine/storage/mod.ts";
import { EMPTY_SHA256, signV4 } from "../../engine/storage/object_store.ts";
import { Config } from "../../server/config.ts";
import { coldStorageSettings } from "../../main.ts";

const BUCKET = "cold";
const SERVER_KEY = "S3RVER"; // s3rver's built-in account

const TABLE = `CREATE TABLE t AS (
  SELECT timestamp_sequence('2024-01-01', 1800000000L) ts,
    rnd_symbol('A','B','C', NULL) sym,
    CASE WHEN x % 9 = 0 THEN NULL ELSE x * 1.25 END d,
    x l,
    CASE WHEN x % 4 = 0 THEN NULL ELSE cast(x AS INT) END i,
    CASE WHEN x % 6 = 0 THEN NULL ELSE 'v' || x END vc,
    rnd_uuid4() u
  FROM long_sequence(200)) TIMESTAMP(ts) PARTITION BY DAY`;

const QUERIES = [
  "SELECT * FROM t",
  "SELECT sym, count(), sum(d), min(l), max(i) FROM t GROUP BY sym ORDER BY sym",
  "SELECT ts, l, vc FROM t WHERE d > 50 AND sym = 'B'",
  "SELECT count() FROM t WHERE ts IN '2024-01-02'",
  "SELECT ts, sum(l) FROM t SAMPLE BY 6h",
];

const answersNow = (engine: Engine) => answers(engine, QUERIES);

/** name → [isRemote, isParquet, diskSize] from table_partitions('t'). */
async function partitions(engine: Engine): Promise<Map<string, [boolean, boolean, bigint]>> {
  const r = await rows(engine, "SELECT name, isRemote, isParquet, diskSize FROM table_partitions('t')");
  return new Map(r.map((x) => [x[0] as string, [x[1] as boolean, x[2] as boolean, x[3] as bigint]]));
}

interface S3Env {
  store: ObjectStoreConfig;
  client: S3Client;
  root: string;
  keys(): Promise<Map<string, number>>;
}

/** A temp data root and an s3rver with bucket `cold` on a free port, stopped afterwards. */
async function withS3(fn: (env: S3Env) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "qdb_s3rver_" });
  const root = await Deno.makeTempDir({ prefix: "qdb_cold_" });
  const server = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory: dir,
    configureBuckets: [{ name: BUCKET, configs: [] }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: SERVER_KEY, secretAccessKey: SERVER_KEY },
  });
  const store: ObjectStoreConfig = {
    endpoint,
    bucket: BUCKET,
    region: "us-east-1",
    accessKeyId: SERVER_KEY,
    secretAccessKey: SERVER_KEY,
    root: "qdb",
  };
  const keys = async () => {
    const out = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: "qdb/" }));
    return new Map((out.Contents ?? []).map((o) => [o.Key!, Number(o.Size)]));
  };
  try {
    await fn({ store, client, root, keys });
  } finally {
    client.destroy();
    // Idle keep-alive connections (the engine's fetch pool) would hold close() until they time out.
    (server as unknown as { httpServer: { closeAllConnections(): void } }).httpServer.closeAllConnections();
    await server.close();
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(root, { recursive: true });
  }
}

function open(root: string, store: ObjectStoreConfig | undefined, extra: Record<string, unknown> = {}) {
  return Engine.open({
    root,
    cacheBytes: 64 * 1024 * 1024,
    parallelWorkers: 0,
    // Hourly passes: the tests drive the task's passes themselves.
    ...(store ? { coldStorage: { objectStore: store, checkIntervalMs: 3_600_000 } } : {}),
    ...extra,
  });
}

async function localFolders(root: string): Promise<string[]> {
  const out: string[] = [];
  for await (const t of Deno.readDir(root)) {
    if (!t.isDirectory || !t.name.startsWith("t~")) continue;
    for await (const p of Deno.readDir(`${root}/${t.name}`)) if (p.isDirectory) out.push(p.name);
  }
  return out.sort();
}

const opts = { sanitizeResources: false, sanitizeOps: false };

Deno.test(
  "cold storage: moved partitions are in the bucket, read back the same answers, also after a restart",
  opts,
  async () => {
    await withS3(async ({ store, client, root, keys }) => {
      let engine = await open(root, store);
      try {
        await engine.execute(TABLE, adminSession());
        const before = await answersNow(engine);
        await engine.execute(
          "ALTER TABLE t CONVERT PARTITION TO REMOTE LIST '2024-01-01', '2024-01-02'",
          adminSession(),
        );
        const parts = await partitions(engine);
        assert.deepEqual(parts.get("2024-01-01"), [true, true, 0n]);
        assert.deepEqual(parts.get("2024-01-02"), [true, true, 0n]);
        assert.deepEqual(parts.get("2024-01-03")?.slice(0, 2), [false, false]);
        // The objects, as the standard client sees them, hold the committed Parquet files.
        const objects = await keys();
        assert.equal(objects.size, 2);
        const sizes = await rows(
          engine,
          "SELECT name, parquetFileSize FROM table_partitions('t') WHERE isRemote",
        );
        for (const [name, size] of sizes) {
          const key = [...objects.keys()].find((k) => k.includes(`/${name}.`))!;
          assert.match(key, /^qdb\/t~\d+\/2024-01-0[12]\.\d+\/data\.parquet$/);
          const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
          assert.equal(BigInt(head.ContentLength!), size);
        }
        assert.deepEqual(await answersNow(engine), before);
        // The local copies went after the commit; only local partitions keep folders.
        assert.deepEqual(
          (await localFolders(root)).filter((f) => f.startsWith("2024-01-0") && /^2024-01-0[12]/.test(f)),
          [],
        );
        // Row writes into a remote partition are refused like those into a local Parquet one.
        assert.match(
          await failure(engine, "INSERT INTO t (ts, l) VALUES ('2024-01-01T05:00:00Z', 1)"),
          /convert it to NATIVE first/,
        );
        await engine.close();
        // A restart: nothing cached, the remote partitions are read from the bucket.
        engine = await open(root, store);
        assert.deepEqual(await answersNow(engine), before);
        assert.deepEqual((await partitions(engine)).get("2024-01-01")?.[0], true);
        // Parallel workers read them too (the store's settings travel with the snapshot origin).
        await engine.close();
        engine = await open(root, store, { parallelWorkers: 2, parallelValuesMin: 1 });
        const jobs = engine.parallel.jobs;
        assert.deepEqual(await answersNow(engine), before);
        assert.ok(engine.parallel.jobs > jobs, "the workers ran some of the queries");
        // Back to native: the data comes back from the bucket; the object is collected later.
        await engine.execute("ALTER TABLE t CONVERT PARTITION TO NATIVE LIST '2024-01-01'", adminSession());
        assert.deepEqual((await partitions(engine)).get("2024-01-01")?.slice(0, 2), [false, false]);
        assert.deepEqual(await answersNow(engine), before);
        assert.equal((await keys()).size, 2);
        const task = new ColdStorageTask(storageOf(engine), { checkIntervalMs: 3_600_000 });
        assert.deepEqual(await task.runOnce(), { moved: 0, collected: 1 });
        assert.equal((await keys()).size, 1);
        assert.deepEqual(await answersNow(engine), before);
      } finally {
        await engine.close();
      }
    });
  },
);

Deno.test(
  "cold storage: the background task moves partitions older than the age, never the active one, and deletes uploads no commit names",
  opts,
  async () => {
    await withS3(async ({ store, client, root, keys }) => {
      const engine = await open(root, store);
      try {
        await engine.execute(TABLE, adminSession());
        const before = await answersNow(engine);
        // A crash between upload and commit leaves an object `_txn` does not name.
        const tableDir =
          (await rows(engine, "SELECT directoryName FROM tables() WHERE table_name = 't'"))[0][0];
        const orphan = `qdb/${tableDir}/2024-01-01.99/data.parquet`;
        await client.send(
          new PutObjectCommand({ Bucket: BUCKET, Key: orphan, Body: new Uint8Array([1, 2, 3]) }),
        );
        // 2024-01-01 .. 2024-01-05: "now" is 2024-01-04T12:00, the age one day: 01-01..01-03 have ended before 01-03T12.
        const task = new ColdStorageTask(storageOf(engine), {
          moveAfterMicros: 86_400_000_000n,
          checkIntervalMs: 3_600_000,
        });
        const now = BigInt(Date.parse("2024-01-04T12:00:00Z")) * 1000n;
        assert.deepEqual(await task.runOnce(now), { moved: 2, collected: 1 });
        const parts = await partitions(engine);
        assert.deepEqual([...parts].filter(([, p]) => p[0]).map(([n]) => n), ["2024-01-01", "2024-01-02"]);
        assert.equal((await keys()).has(orphan), false);
        assert.equal((await keys()).size, 2);
        // Today: the reference is the table's newest timestamp (2024-01-05T03:30), not the wall
        // clock, so one more partition (2024-01-03) ended a day before it; 2024-01-04 did not.
        assert.deepEqual(await task.runOnce(BigInt(Date.now()) * 1000n), { moved: 1, collected: 0 });
        const after = await partitions(engine);
        assert.deepEqual([...after].filter(([, p]) => p[0]).map(([n]) => n), [
          "2024-01-01",
          "2024-01-02",
          "2024-01-03",
        ]);
        assert.deepEqual(await answersNow(engine), before);
      } finally {
        await engine.close();
      }
    });
  },
);

Deno.test(
  "cold storage: an unreachable store or a missing object gives a clear error, not a crash",
  opts,
  async () => {
    await withS3(async ({ store, root }) => {
      let engine = await open(root, store);
      await engine.execute(TABLE, adminSession());
      await engine.execute(
        "ALTER TABLE t CONVERT PARTITION TO REMOTE WHERE ts < '2024-01-02'",
        adminSession(),
      );
      await engine.close();
      // A port nobody listens on.
      const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      const dead = `http://127.0.0.1:${(probe.addr as Deno.NetAddr).port}`;
      probe.close();
      engine = await open(root, { ...store, endpoint: dead });
      try {
        const msg = await failure(engine, "SELECT sum(l) FROM t");
        assert.match(
          msg,
          /could not reach object store \[endpoint=http:\/\/127\.0\.0\.1:\d+, bucket=cold, key=qdb\/t~\d+\/2024-01-01\.\d+\/data\.parquet\]/,
        );
        assert.ok(!msg.includes(SERVER_KEY), "no credentials in the message");
        // Local partitions still answer.
        assert.deepEqual(await rows(engine, "SELECT count() FROM t WHERE ts >= '2024-01-02'"), [[152n]]);
      } finally {
        await engine.close();
      }
      engine = await open(root, { ...store, bucket: "elsewhere" });
      try {
        assert.match(
          await failure(engine, "SELECT sum(l) FROM t"),
          /could not read remote object .*bucket=elsewhere.*status=404/,
        );
      } finally {
        await engine.close();
      }
      // Without cold storage configured the remote partitions say why they cannot be read.
      engine = await open(root, undefined);
      try {
        assert.match(
          await failure(engine, "SELECT sum(l) FROM t"),
          /partition is in cold storage but cold.storage.enabled is false/,
        );
        assert.match(
          await failure(engine, "ALTER TABLE t CONVERT PARTITION TO REMOTE LIST '2024-01-02'"),
          /cold storage is not enabled/,
        );
        assert.deepEqual(
          (await partitions(engine)).get("2024-01-02")?.slice(0, 2),
          [false, false],
          "nothing converted",
        );
      } finally {
        await engine.close();
      }
    });
  },
);

Deno.test("cold storage settings: QuestDB's keys, object store string parsed, secrets masked", () => {
  const conf = {
    "cold.storage.enabled": "true",
    "cold.storage.object.store":
      "s3::bucket=b;root=/cold/;region=eu-west-1;endpoint=http://127.0.0.1:9999/;access_key_id=AK;secret_access_key=SK;",
    "cold.storage.move.after": "30d",
    "storage.policy.check.interval": "1m",
  };
  const s = coldStorageSettings(new Config(conf, {}), {})!;
  assert.deepEqual(s.objectStore, {
    endpoint: "http://127.0.0.1:9999",
    bucket: "b",
    region: "eu-west-1",
    accessKeyId: "AK",
    secretAccessKey: "SK",
    root: "cold",
  });
  assert.equal(s.moveAfterMicros, 30n * 86_400_000_000n);
  assert.equal(s.checkIntervalMs, 60_000);
  const shown = new Config(conf, {}).rows().find((r) => r[0] === "cold.storage.object.store")!;
  assert.equal(shown[2], "****");
  assert.deepEqual(coldStorageSettings(new Config({}, {}), {}), { checkIntervalMs: 15 * 60_000 });
  assert.throws(
    () => coldStorageSettings(new Config({ ...conf, "cold.storage.move.after": "soon" }, {}), {}),
    /cold.storage.move.after=soon is not a positive age/,
  );
  // Credentials from the environment when the string has none.
  const env = coldStorageSettings(
    new Config({ ...conf, "cold.storage.object.store": "s3::bucket=b;" }, {}),
    { AWS_ACCESS_KEY_ID: "A", AWS_SECRET_ACCESS_KEY: "S" },
  )!;
  assert.equal(env.objectStore!.accessKeyId, "A");
  assert.throws(
    () => coldStorageSettings(new Config({ ...conf, "cold.storage.object.store": "s3::bucket=b;" }, {}), {}),
    (e: Error) => /credentials missing/.test(e.message) && !e.message.includes("SK"),
  );
});

Deno.test("cold storage: requests are signed as AWS Signature V4 specifies (the S3 documentation's GET example)", async () => {
  // s3rver accepts any signature, so the signer is checked against AWS's published example.
  const auth = await signV4(
    {
      region: "us-east-1",
      accessKeyId: "AKIAIOSFODNN7EXAMPLE",
      secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    },
    "GET",
    "/test.txt",
    "",
    {
      host: "examplebucket.s3.amazonaws.com",
      range: "bytes=0-9",
      "x-amz-content-sha256": EMPTY_SHA256,
      "x-amz-date": "20130524T000000Z",
    },
    EMPTY_SHA256,
    "20130524T000000Z",
  );
  assert.equal(
    auth,
    "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, " +
      "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, " +
      "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41",
  );
});

Deno.test(
  "storage policy: SET STORAGE POLICY(TO PARQUET, DROP LOCAL) converts and moves by age; ENABLE/DISABLE/DROP; kept across restarts",
  opts,
  async () => {
    await withS3(async ({ store, root, keys }) => {
      let engine = await open(root, store);
      try {
        await engine.execute(TABLE, adminSession());
        const before = await answersNow(engine);
        await engine.execute(
          "ALTER TABLE t SET STORAGE POLICY(TO PARQUET 1d, DROP LOCAL 2 DAYS)",
          adminSession(),
        );
        // The newest row is 2024-01-05T03:30: TO PARQUET takes what ended by 01-04T03:30, DROP LOCAL by 01-03T03:30.
        const task = () => new ColdStorageTask(storageOf(engine), { checkIntervalMs: 3_600_000 });
        assert.deepEqual(await task().runOnce(), { moved: 2, collected: 0 });
        const state = async () =>
          [...(await partitions(engine))].map(([n, p]) =>
            `${n}:${p[0] ? "remote" : p[1] ? "parquet" : "native"}`
          );
        assert.deepEqual(await state(), [
          "2024-01-01:remote",
          "2024-01-02:remote",
          "2024-01-03:parquet",
          "2024-01-04:native",
          "2024-01-05:native",
        ]);
        assert.equal((await keys()).size, 2);
        assert.deepEqual(await answersNow(engine), before);
        // Disabled, a shorter DROP LOCAL does nothing; the policy is kept in the metadata across a restart.
        await engine.execute("ALTER TABLE t DISABLE STORAGE POLICY", adminSession());
        await engine.execute("ALTER TABLE t SET STORAGE POLICY(DROP LOCAL 1d)", adminSession());
        assert.deepEqual(await task().runOnce(), { moved: 0, collected: 0 });
        await engine.close();
        engine = await open(root, store);
        await engine.execute("ALTER TABLE t ENABLE STORAGE POLICY", adminSession());
        assert.deepEqual(await task().runOnce(), { moved: 1, collected: 0 });
        assert.equal((await state())[2], "2024-01-03:remote");
        await engine.execute("ALTER TABLE t DROP STORAGE POLICY", adminSession());
        assert.match(
          await failure(engine, "ALTER TABLE t ENABLE STORAGE POLICY"),
          /table has no storage policy/,
        );
        assert.deepEqual(await answersNow(engine), before);
        // QuestDB's errors, at the clause.
        const sql = "ALTER TABLE t SET STORAGE POLICY(TO PARQUET 1d, DROP REMOTE 3d)";
        try {
          await engine.execute(sql, adminSession());
          assert.fail("DROP REMOTE accepted");
        } catch (e) {
          assert.equal((e as SqlError).message, "'DROP REMOTE' is not supported yet");
          assert.equal((e as SqlError).position, sql.indexOf("DROP REMOTE"));
        }
        assert.match(
          await failure(engine, "ALTER TABLE t SET STORAGE POLICY(TO PARQUET 0d)"),
          /must be positive/,
        );
        await engine.execute("CREATE TABLE flat (x INT)", adminSession());
        assert.match(
          await failure(engine, "ALTER TABLE flat SET STORAGE POLICY(TO PARQUET 1d)"),
          /requires a partitioned table/,
        );
      } finally {
        await engine.close();
      }
    });
  },
);

Deno.test(
  "storage policy without cold storage: TO PARQUET converts locally, DROP LOCAL keeps the data",
  opts,
  async () => {
    const root = await Deno.makeTempDir({ prefix: "qdb_policy_" });
    const engine = await open(root, undefined);
    try {
      await engine.execute(TABLE, adminSession());
      const before = await answersNow(engine);
      await engine.execute("ALTER TABLE t SET STORAGE POLICY(TO PARQUET 2d, DROP LOCAL 1d)", adminSession());
      const task = new ColdStorageTask(storageOf(engine), { checkIntervalMs: 3_600_000 }, false);
      assert.deepEqual(await task.runOnce(), { moved: 0, collected: 0 });
      const parts = await partitions(engine);
      assert.deepEqual([...parts].filter(([, p]) => p[1]).map(([n]) => n), ["2024-01-01", "2024-01-02"]);
      assert.ok([...parts.values()].every((p) => !p[0]), "nothing remote");
      assert.deepEqual(await answersNow(engine), before);
    } finally {
      await engine.close();
      await Deno.remove(root, { recursive: true });
    }
  },
);

Deno.test(
  "cold storage: a dropped table's objects go once no snapshot reads its folder; other tables' stay",
  opts,
  async () => {
    await withS3(async ({ store, root, keys }) => {
      const engine = await open(root, store);
      try {
        await engine.execute(TABLE, adminSession());
        await engine.execute(TABLE.replace("CREATE TABLE t", "CREATE TABLE u"), adminSession());
        for (const t of ["t", "u"]) {
          await engine.execute(
            `ALTER TABLE ${t} CONVERT PARTITION TO REMOTE LIST '2024-01-01'`,
            adminSession(),
          );
        }
        assert.equal((await keys()).size, 2);
        await engine.execute("DROP TABLE u", adminSession());
        const task = new ColdStorageTask(storageOf(engine), { checkIntervalMs: 3_600_000 });
        assert.deepEqual(await task.runOnce(), { moved: 0, collected: 1 });
        const left = [...(await keys()).keys()];
        assert.equal(left.length, 1);
        assert.match(left[0], /^qdb\/t~\d+\//);
        assert.deepEqual(await rows(engine, "SELECT count() FROM t WHERE ts IN '2024-01-01'"), [[48n]]);
      } finally {
        await engine.close();
      }
    });
  },
);
