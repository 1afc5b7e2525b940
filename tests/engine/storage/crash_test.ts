/**
 * Durability under SIGKILL: a child process appends batches and reports each acknowledged
 * row count; the parent kills it at random moments, reopens the root, and checks that every
 * acknowledged row is there with exact values and that nothing partial is.
 */
import assert from "node:assert/strict";
import { readValue } from "../../../engine/base/values.ts";
import { openStorage } from "../../../engine/storage/mod.ts";
import { crashRow } from "./_crash_writer.ts";

const KILLS = 24;
const WRITER = new URL("./_crash_writer.ts", import.meta.url).pathname;

/** Runs the writer until `ready`, lets it work for `workMs`, kills it; returns what it reported. */
async function runAndKill(
  root: string,
  workMs: number,
): Promise<{ ready: number; acked: number[]; started: number[] }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-check", WRITER, root],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const report = { ready: -1, acked: [] as number[], started: [] as number[] };
  let readyResolve!: () => void;
  const ready = new Promise<void>((r) => (readyResolve = r));
  const reading = (async () => {
    let text = "";
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      text += chunk;
      let nl;
      while ((nl = text.indexOf("\n")) >= 0) {
        const [word, n] = text.slice(0, nl).split(" ");
        text = text.slice(nl + 1);
        if (word === "ready") {
          report.ready = Number(n);
          readyResolve();
        } else if (word === "ack") report.acked.push(Number(n));
        else if (word === "start") report.started.push(Number(n));
      }
    }
    readyResolve();
  })();
  const stderr = new Response(child.stderr).text();
  await ready;
  await new Promise((r) => setTimeout(r, workMs));
  try {
    child.kill("SIGKILL");
  } catch { /* already exited: stderr will say why */ }
  const status = await child.status;
  await reading;
  const errors = await stderr;
  assert.ok(report.ready >= 0, `writer never became ready: ${errors}`);
  assert.equal(status.signal, "SIGKILL", `writer exited by itself: ${errors}`);
  return report;
}

/** Reads the whole table and checks ids 0..n-1 are each present once with exact values, in timestamp order. */
async function verify(root: string): Promise<number> {
  const storage = await openStorage(root);
  try {
    const table = storage.table("crash");
    if (!table) return 0;
    const snap = table.snapshot();
    const seen = new Uint8Array(snap.rowCount);
    let prevTs = -1n;
    for (let p = 0; p < snap.partitions.length; p++) {
      const n = snap.partitions[p].rowCount;
      const [ts, id, v, s, k] = await Promise.all([0, 1, 2, 3, 4].map((c) => snap.read(p, c, 0, n)));
      for (let r = 0; r < n; r++) {
        const rowId = Number(readValue(id, r));
        assert.ok(
          rowId >= 0 && rowId < seen.length && seen[rowId] === 0,
          `row id ${rowId} unexpected or repeated`,
        );
        seen[rowId] = 1;
        const want = crashRow(rowId);
        const t = readValue(ts, r) as bigint;
        assert.ok(t >= prevTs, "rows out of timestamp order");
        prevTs = t;
        assert.deepEqual([t, readValue(v, r), readValue(s, r), readValue(k, r)], [
          want.ts,
          want.v,
          want.s,
          want.k,
        ]);
      }
    }
    const rows = snap.rowCount;
    snap.release();
    return rows;
  } finally {
    await storage.close();
  }
}

Deno.test({
  name: "crash test: SIGKILL at random moments never loses an acknowledged row nor leaves a partial one",
  sanitizeResources: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "qdb_crash_test_" });
    let committed = 0;
    for (let i = 0; i < KILLS; i++) {
      const report = await runAndKill(root, 30 + Math.floor(Math.random() * 400));
      assert.equal(report.ready, committed, "the writer saw a different row count than the last check");
      const lastAck = report.acked.at(-1) ?? report.ready;
      const inFlight = report.started.at(-1) ?? report.ready;
      const rows = await verify(root);
      assert.ok(
        rows === lastAck || rows === inFlight,
        `rows ${rows}, last ack ${lastAck}, in flight ${inFlight}`,
      );
      committed = rows;
    }
    assert.ok(committed > 0, "the writer never committed anything");
    await Deno.remove(root, { recursive: true });
  },
});
