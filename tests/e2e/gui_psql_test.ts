/**
 * psql's describe commands against the real server (issue 10 evidence): `\d+ t` with
 * storage and nullability (no "Indexes:" section: a declared SYMBOL INDEX is not built), `\di`, `\dt`,
 * `\dn`/`\dnS` (public, pg_catalog, information_schema), `\df` (no user functions, as on
 * PostgreSQL) and `\dfS` (the built-ins in pg_catalog).
 */
import assert from "node:assert/strict";
import { startServer } from "./server_process.ts";
import { requireCommand, run } from "./clients/pg_tools.ts";

Deno.test({
  name: "psql \\d+, \\di, \\dt, \\dn, \\df describe tables, indexes, schemas and functions",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await requireCommand("psql", "postgresql-client");
    const server = await startServer({ pg: true });
    const psql = (...args: string[]) =>
      run(
        "psql",
        ["-h", "127.0.0.1", "-p", String(server.pgPort), "-U", "admin", "-d", "qdb", "-X", ...args],
        {
          env: { PGPASSWORD: "quest", PGCONNECT_TIMEOUT: "10" },
          timeoutMs: 30_000,
        },
      );
    const ok = async (command: string) => {
      const r = await psql("-c", command);
      assert.equal(r.code, 0, `${command}: ${r.stderr}`);
      assert.equal(r.stderr, "", command);
      return r.stdout;
    };
    try {
      await ok(
        "create table t (ts timestamp, sym symbol index, x int, price double, note varchar) timestamp(ts) partition by day",
      );

      const d = await ok("\\d+ t");
      assert.match(d, /Table "public\.t"/);
      assert.match(d, /ts\s+\| timestamp without time zone \|\s+\| not null \|\s+\| plain/);
      assert.match(d, /sym\s+\| character varying\s+\|\s+\|\s+\|\s+\| extended/);
      assert.match(d, /x\s+\| integer/);
      assert.match(d, /price\s+\| double precision/);
      // `SYMBOL INDEX` is only declared: no index is built, so none is listed (psql still runs
      // its pg_index queries without error; engine/catalog/symbol_index.ts).
      assert.doesNotMatch(d, /Indexes:/);
      assert.doesNotMatch(d, /t_sym_idx/);
      const di = await psql("-c", "\\di");
      assert.equal(di.code, 0, di.stderr);
      assert.match(di.stdout + di.stderr, /Did not find any relations/);
      // reg* casts print names, as PostgreSQL's regtype and regclass output does.
      assert.match(
        await ok("select 'int4'::regtype, 't'::regclass, 'pg_type'::regclass::oid"),
        /integer \| t\s+\|\s+1247/,
      );

      assert.match(await ok("\\dt"), /public \| t\s+\| table \| admin/);
      const dn = await ok("\\dn");
      assert.match(dn, /public \| admin/);
      const dnS = await ok("\\dnS");
      assert.match(dnS, /information_schema \| admin/);
      assert.match(dnS, /pg_catalog\s+\| admin/);

      assert.match(await ok("\\df"), /\(0 rows\)/);
      assert.match(await ok("\\dfS now"), /pg_catalog \| now\s+\| timestamp without time zone/);
      assert.match(await ok("\\dfS"), /pg_catalog \| abs\s+\|/);
      assert.match(await ok("\\l"), /qdb\s+\| admin \| UTF8/);
      assert.match(await ok("\\du"), /admin\s+\| Superuser/);
      assert.match(await ok("\\d pg_type"), /View "pg_catalog\.pg_type"/);
    } finally {
      await server.stop();
    }
  },
});
