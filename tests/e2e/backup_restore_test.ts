/**
 * BACKUP DATABASE and its restore (issue 22, docs/operations.md): while ILP writers run over TCP
 * and HTTP, BACKUP DATABASE copies every table into `<cairo.sql.backup.root>/<yyyy-MM-dd>`. A
 * server started on that folder answers what the source answered at backup time: each writer's
 * rows are a gap-free prefix of its sequence (nothing torn), the source filtered to that prefix
 * gives the same answers, and every row acknowledged before BACKUP was sent is in it.
 */
import assert from "node:assert/strict";
import { type ServerProcess, startServer } from "./server_process.ts";
import { type HttpWriterState, sql, startWriters, type TcpWriterState, waitAckedPast } from "./ilp_writer.ts";

/** Answers over the rows of each table's sequence below the given bounds. */
function queries(ackedBelow: number, streamedBelow: number): string[] {
  const a = `acked where seq < ${ackedBelow}`, s = `streamed where seq < ${streamedBelow}`;
  return [
    `select count(), sum(seq), min(seq), max(seq), min(timestamp), max(timestamp) from ${a}`,
    `select count(), sum(seq), max(timestamp) from ${s}`,
    `select sym, count(), sum(v) from ${s} order by sym`,
    `select * from ${a} order by seq desc limit 3`,
    `select * from ${s} order by seq desc limit 3`,
  ];
}

async function answers(server: ServerProcess, qs: string[]): Promise<unknown[][][]> {
  const out = [];
  for (const q of qs) out.push(await sql(server, q));
  return out;
}

Deno.test({
  name:
    "BACKUP DATABASE under ILP ingestion: a server on the backup folder answers the source's state at backup time",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const backupRoot = await Deno.makeTempDir({ prefix: "qdb_backups_" });
    const source = await startServer({
      ilp: true,
      env: { QDB_LINE_TCP_COMMIT_INTERVAL_DEFAULT: "100", QDB_CAIRO_SQL_BACKUP_ROOT: backupRoot },
    });
    let restored: ServerProcess | undefined;
    const http: HttpWriterState = { stop: false, acked: -1, failures: [] };
    const tcp: TcpWriterState = { stop: false, sent: 0 };
    try {
      const writers = await startWriters(source, http, tcp);

      const ackedBefore = http.acked;
      const res = await source.exec("BACKUP DATABASE");
      assert.equal(res.status, 200, await res.text());
      // Writers keep going after the backup; none of it may be in the copy.
      const ackedAfterBackup = http.acked;
      await waitAckedPast(http, ackedAfterBackup);
      http.stop = tcp.stop = true;
      await Promise.all(writers);
      assert.deepEqual(http.failures, []);
      assert.ok(http.acked > ackedAfterBackup, "writes go on after BACKUP");

      const folders: string[] = [];
      for await (const e of Deno.readDir(backupRoot)) folders.push(e.name);
      const today = new Date().toISOString().slice(0, 10);
      assert.deepEqual(folders, [today], "one folder named after the UTC date, no tmp left");

      restored = await startServer({ root: `${backupRoot}/${today}` });
      // Each table in the copy is a prefix of its writer's sequence: count = max + 1, no gap.
      const [[aCount, aMax]] = await sql(restored, "select count(), max(seq) from acked");
      const [[sCount, sMax]] = await sql(restored, "select count(), max(seq) from streamed");
      assert.equal(aMax, (aCount as number) - 1, "acked is a gap-free prefix");
      assert.equal(sMax, (sCount as number) - 1, "streamed is a gap-free prefix");
      assert.ok((aCount as number) >= ackedBefore + 1, "every row acknowledged before BACKUP is in the copy");
      const [[sourceTotal]] = await sql(source, "select count() from acked");
      assert.ok(
        (aCount as number) < (sourceTotal as number),
        "rows written after BACKUP are not in the copy",
      );

      const qs = queries(aCount as number, sCount as number);
      assert.deepEqual(await answers(restored, qs), await answers(source, qs));
      assert.deepEqual(
        await sql(restored, "select table_name from tables() order by 1"),
        [["acked"], ["streamed"]],
      );
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
      await Deno.remove(backupRoot, { recursive: true }).catch(() => {});
    }
  },
});
