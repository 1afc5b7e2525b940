/**
 * SIGKILL at random moments while a client runs a random mix of writes against one table:
 * multi-row INSERTs, out-of-order INSERTs (merges), ILP over HTTP, UPDATEs, DELETEs, ALTER TABLE
 * ADD/DROP COLUMN and DROP PARTITION (issue 9 "Faults"). After every restart the table must
 * open and read back exactly as the reference model says: every acknowledged operation, and
 * the one in flight either wholly or not at all.
 */
import { type ServerProcess, startServer } from "../e2e/server_process.ts";
import { rng } from "../fuzz/prng.ts";
import { cloneModel, digest, emptyModel, type Model, nextOperation, type Operation } from "./kill_model.ts";

export interface KillReport {
  kills: number;
  operationsAcknowledged: number;
  inFlightApplied: number;
  inFlightLost: number;
  byOperation: Record<string, number>;
  rows: number;
}

async function send(server: ServerProcess, op: Operation): Promise<void> {
  // SQL goes in a POST body: an INSERT of 1,500+ rows as a GET URL outgrew what the client and
  // server take as a request line (fetch "Invalid URL", or HTTP 400 before the server saw it).
  const r = op.request.kind === "sql"
    ? await fetch(`${server.httpUrl}/exec`, { method: "POST", body: op.request.sql })
    : await fetch(`${server.httpUrl}/write?precision=n`, { method: "POST", body: op.request.body });
  const body = await r.text();
  if (r.status >= 300) throw new Refused(`${op.name} refused: HTTP ${r.status} ${body.slice(0, 300)}`);
}

class Refused extends Error {}

async function readBack(server: ServerProcess): Promise<string> {
  const cols = await (await server.exec("SELECT \"column\" FROM table_columns('f')")).json();
  if (!cols.dataset) throw new Error(`table_columns failed: ${JSON.stringify(cols)}`);
  const rows = await (await server.exec("SELECT n, ts::long t, k, v FROM f ORDER BY n")).json();
  if (!rows.dataset) throw new Error(`reading f failed: ${JSON.stringify(rows)}`);
  return `columns ${cols.dataset.map((c: string[]) => c[0]).join(",")}\n` +
    rows.dataset.map((x: unknown[]) => x.join(",")).join("\n");
}

function firstDifference(a: string, b: string): string {
  const la = a.split("\n"), lb = b.split("\n");
  for (let i = 0; i < Math.max(la.length, lb.length); i++) {
    if (la[i] !== lb[i]) {
      return `line ${i}: server ${JSON.stringify(la[i])}, model ${
        JSON.stringify(lb[i])
      } (server ${la.length} lines, model ${lb.length})`;
    }
  }
  return "equal";
}

export async function runKills(
  o: { kills: number; seed: number; log?: (s: string) => void },
): Promise<KillReport> {
  const r = rng(o.seed);
  let server = await startServer();
  const root = server.root;
  const report: KillReport = {
    kills: 0,
    operationsAcknowledged: 0,
    inFlightApplied: 0,
    inFlightLost: 0,
    byOperation: {},
    rows: 0,
  };
  let model: Model = emptyModel();
  try {
    await send(server, {
      name: "create",
      request: {
        kind: "sql",
        sql: "CREATE TABLE f (ts TIMESTAMP, n LONG, k SYMBOL, v DOUBLE) TIMESTAMP(ts) PARTITION BY HOUR",
      },
      apply: () => {},
    });
    for (let round = 0; round < o.kills; round++) {
      let inFlight: Operation | undefined;
      let stopped = false;
      const writer = (async () => {
        while (!stopped) {
          const op = nextOperation(r, model);
          inFlight = op;
          try {
            await send(server, op);
          } catch (e) {
            if (e instanceof Refused) throw e;
            return; // the kill: connection reset or refused
          }
          op.apply(model);
          inFlight = undefined;
          report.operationsAcknowledged++;
          report.byOperation[op.name] = (report.byOperation[op.name] ?? 0) + 1;
        }
      })();
      await new Promise((res) => setTimeout(res, 30 + r.int(400)));
      await server.kill();
      stopped = true;
      await writer;
      report.kills++;
      server = await startServer({ root });
      const actual = await readBack(server);
      const acked = digest(model);
      if (actual === acked) {
        if (inFlight) report.inFlightLost++;
      } else if (inFlight) {
        const withIt = cloneModel(model);
        (inFlight as Operation).apply(withIt);
        if (actual !== digest(withIt)) {
          throw new Error(
            `round ${round}: after a kill during ${
              (inFlight as Operation).name
            } the table matches neither state: ${firstDifference(actual, acked)}`,
          );
        }
        model = withIt;
        report.inFlightApplied++;
      } else {
        throw new Error(`round ${round}: acknowledged state lost: ${firstDifference(actual, acked)}`);
      }
      o.log?.(
        `kill ${
          round + 1
        }: ${model.rows.size} rows, ${report.operationsAcknowledged} operations acknowledged`,
      );
    }
    report.rows = model.rows.size;
    return report;
  } finally {
    await server.stop();
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}
