/**
 * A test-only Hono app with the ILP and import handlers mounted as app.ts will mount them, plus
 * a query helper that reads rows through the engine.
 */
import { Hono } from "hono";
import { adminSession, Engine, readValue, type Value } from "../../../engine/mod.ts";
import { Config } from "../../../server/config.ts";
import { ilpHandler } from "../../../server/http/ilp_handler.ts";
import { importHandler } from "../../../server/http/import_handler.ts";

export interface TestApp {
  engine: Engine;
  request(path: string, init?: RequestInit): Promise<Response>;
  rows(sql: string): Promise<Value[][]>;
  columns(table: string): Promise<[string, string][]>;
}

export async function withIlpApp(
  fn: (t: TestApp) => Promise<void>,
  conf: Record<string, string> = {},
): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "qdb_ilp_http_" });
  const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024 });
  const config = new Config(conf, {});
  const app = new Hono();
  const ilp = ilpHandler(engine, config);
  app.all("/write", (c) => ilp(c.req.raw));
  app.all("/api/v2/write", (c) => ilp(c.req.raw));
  const imp = importHandler(engine, config);
  app.all("/imp", (c) => imp(c.req.raw));
  const rows = async (sql: string) => {
    const out = await engine.execute(sql, adminSession());
    if (out.kind !== "rows") return [];
    const result: Value[][] = [];
    for await (const b of out.batches) {
      for (let i = 0; i < b.rowCount; i++) result.push(b.columns.map((c) => readValue(c, i)));
    }
    return result;
  };
  try {
    await fn({
      engine,
      request: (path, init) => Promise.resolve(app.request(path, init)),
      rows,
      columns: async (table) =>
        (await rows(`SELECT "column", type FROM table_columns('${table}')`)).map((
          r,
        ) => [r[0] as string, r[1] as string]),
    });
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}
