/**
 * CHECKPOINT CREATE / RELEASE and the restore procedure (issue 22, docs/operations.md): while ILP
 * writers run (TCP and HTTP), CHECKPOINT CREATE freezes the files, `cp -a` copies the root, and
 * RELEASE lets the held writes through. The copy, started after `touch _restore`, answers exactly
 * what the source answered at checkpoint time, and no row acknowledged before the checkpoint is
 * missing from it; the source loses nothing written meanwhile.
 */
import assert from "node:assert/strict";
import { type ServerProcess, startServer } from "./server_process.ts";
import { type HttpWriterState, sql, startWriters, type TcpWriterState, waitAckedPast } from "./ilp_writer.ts";

/** Queries whose answers must match between the source at checkpoint time and the restored copy. */
const QUERIES = [
  "select count(), sum(seq), min(seq), max(seq), min(timestamp), max(timestamp) from acked",
  "select count(), sum(seq), max(timestamp) from streamed",
  "select sym, count(), sum(v) from streamed order by sym",
  "select * from acked order by seq desc limit 3",
  "select table_name from tables() order by table_name",
];

async function answers(server: ServerProcess): Promise<string[]> {
  const out: string[] = [];
  for (const q of QUERIES) {
    const res = await server.exec(q);
    const body = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    out.push(JSON.stringify(body.dataset));
  }
  return out;
}

Deno.test({
  name:
    "checkpoint: a cp -a copy taken under ILP ingestion restores to the source's answers at checkpoint time",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const source = await startServer({ ilp: true, env: { QDB_LINE_TCP_COMMIT_INTERVAL_DEFAULT: "100" } });
    const copyRoot = await Deno.makeTempDir({ prefix: "qdb_copy_" });
    let restored: ServerProcess | undefined;
    const http: HttpWriterState = { stop: false, acked: -1, failures: [] };
    const tcp: TcpWriterState = { stop: false, sent: 0 };
    try {
      const writers = await startWriters(source, http, tcp);

      const ackedBefore = http.acked;
      const create = await source.exec("CHECKPOINT CREATE");
      assert.equal(create.status, 200, await create.text());
      assert.equal((await source.exec("CHECKPOINT CREATE")).status, 400, "a second CREATE is refused");
      const atCheckpoint = await answers(source);

      const cp = await new Deno.Command("cp", { args: ["-a", `${source.root}/.`, copyRoot] }).output();
      assert.equal(cp.code, 0, new TextDecoder().decode(cp.stderr));
      await new Promise((r) => setTimeout(r, 300));
      assert.deepEqual(
        await answers(source),
        atCheckpoint,
        "writes are held back while the checkpoint is open",
      );
      const ackedDuring = http.acked;

      const release = await source.exec("CHECKPOINT RELEASE");
      assert.equal(release.status, 200, await release.text());
      await waitAckedPast(http, ackedDuring);
      assert.ok(http.acked > ackedDuring, "held writes are applied after RELEASE");
      http.stop = tcp.stop = true;
      await Promise.all(writers);
      assert.deepEqual(http.failures, []);
      const [[total]] = await sql(source, "select count() from acked");
      assert.equal(total, http.acked + 1, "the source lost no acknowledged row");

      // The restore procedure: a blank _restore file in the copied root, then start as usual.
      await Deno.writeFile(`${copyRoot}/_restore`, new Uint8Array());
      restored = await startServer({ root: copyRoot, ilp: true });
      assert.deepEqual(
        await answers(restored),
        atCheckpoint,
        "the copy answers what the source did at checkpoint",
      );
      const [[present]] = await sql(restored, `select count() from acked where seq <= ${ackedBefore}`);
      assert.equal(
        present,
        ackedBefore + 1,
        "every row acknowledged before CHECKPOINT CREATE is in the copy",
      );
      await assert.rejects(Deno.stat(`${copyRoot}/_restore`), Deno.errors.NotFound);
      await assert.rejects(Deno.stat(`${copyRoot}/.checkpoint`), Deno.errors.NotFound);
      // The restored server takes writes.
      const w = await fetch(`${restored.httpUrl}/write`, {
        method: "POST",
        body: "acked,src=restored seq=-1i\n",
      });
      assert.equal(w.status, 204);
    } finally {
      http.stop = tcp.stop = true;
      await restored?.stop();
      await source.stop();
      await Deno.remove(copyRoot, { recursive: true }).catch(() => {});
    }
  },
});
