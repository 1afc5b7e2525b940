/**
 * A table the user holds no permission on cannot be told from a missing one (issue #24,
 * docs/access_control.md): selecting from it, naming a column of it or using one in an
 * expression answers "table does not exist" with the same text and position as for a table
 * that does not exist, over REST /exec, /api/v1/sql/validate and pgwire (simple and extended
 * protocol). A user with some permission on a table sees it, and a SELECT is then refused.
 */
import assert from "node:assert/strict";
import type pg from "pg";
import { ACL_ENV, basic, pgConnect, runner } from "./acl_helpers.ts";
import { startServer } from "./server_process.ts";

// Same length, so that positions after the name line up too.
const HIDDEN = "secret_t";
const MISSING = "absent_t";

const PROBES = [
  `SELECT * FROM ${HIDDEN}`,
  `SELECT nosuch FROM ${HIDDEN}`,
  `SELECT secretval + 1 FROM ${HIDDEN}`,
  `SELECT x FROM pub JOIN ${HIDDEN} ON pub.x = ${HIDDEN}.secretval`,
  `SELECT x FROM pub WHERE x IN (SELECT secretval FROM ${HIDDEN})`,
  `SELECT (SELECT max(secretval) FROM ${HIDDEN}) FROM pub`,
  `WITH c AS (SELECT secretval FROM ${HIDDEN}) SELECT * FROM c`,
  `INSERT INTO pub SELECT secretval FROM ${HIDDEN}`,
  `INSERT INTO pub VALUES ((SELECT secretval FROM ${HIDDEN}))`,
  `UPDATE pub SET x = 1 WHERE x = (SELECT secretval::int FROM ${HIDDEN})`,
];

function pgAnswer(client: pg.Client, sql: string, values?: unknown[]): Promise<string> {
  return client.query(values ? { text: sql, values } : sql).then(
    (r: { rows: unknown[] }) => `ok ${JSON.stringify(r.rows)}`,
    (e: { code?: string; message?: string; position?: string }) => `${e.code} ${e.position} ${e.message}`,
  );
}

Deno.test({
  name: "acl: a table without any permission answers exactly as a missing table",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ pg: true, env: ACL_ENV });
    const { ok, run } = runner(server.httpUrl);
    const mal = basic("mal", "pw");
    const validate = async (sql: string) => {
      const res = await fetch(`${server.httpUrl}/api/v1/sql/validate?query=${encodeURIComponent(sql)}`, {
        headers: { authorization: mal },
      });
      return `${res.status} ${await res.text()}`;
    };
    try {
      await ok(`create table ${HIDDEN} (secretval string, ts timestamp) timestamp(ts)`);
      await ok("create table pub (x int)");
      await ok("create table ins_t (a int)");
      await ok("create user mal with password 'pw'");
      await ok("grant http, pgwire to mal");
      await ok("grant select, insert, update on pub to mal");
      await ok("grant insert on ins_t to mal");
      const client = await pgConnect(server.pgPort, "mal", "pw");
      try {
        for (const probe of PROBES) {
          const missing = probe.replaceAll(HIDDEN, MISSING);
          const same = (hidden: string, absent: string, where: string) =>
            assert.equal(hidden.replaceAll(HIDDEN, MISSING), absent, `${where}: ${probe}`);
          const restHidden = await run(probe, mal), restMissing = await run(missing, mal);
          same(
            `${restHidden.status} ${restHidden.body}`,
            `${restMissing.status} ${restMissing.body}`,
            "/exec",
          );
          assert.match(restMissing.body, /"error":"table does not exist \[table=absent_t\]"/, probe);
          same(await validate(probe), await validate(missing), "validate");
          same(await pgAnswer(client, probe), await pgAnswer(client, missing), "pgwire simple");
          // The extended protocol (parse, describe, bind) with a parameter.
          const withParam = probe.includes("WHERE") ? probe : probe.replace(/^SELECT /, "SELECT $1::int p, ");
          if (withParam.startsWith("SELECT")) {
            same(
              await pgAnswer(client, withParam, [1]),
              await pgAnswer(client, withParam.replaceAll(HIDDEN, MISSING), [1]),
              "pgwire extended",
            );
          }
        }
        // The error points at the table name, as for any missing table.
        const r = JSON.parse((await run(`SELECT secretval + 1 FROM ${HIDDEN}`, mal)).body);
        assert.deepEqual([r.error, r.position], [`table does not exist [table=${HIDDEN}]`, 26]);

        // Some permission (INSERT) makes the table visible: a SELECT is then refused, not "missing".
        const ins = await run("SELECT * FROM ins_t", mal);
        assert.equal(ins.status, 403, ins.body);
        assert.match(JSON.parse(ins.body).error, /^Access denied for mal \[SELECT on ins_t\.a\]$/);
        // A subquery in INSERT ... VALUES is checked like any read, and gives its value.
        const insRead = await run("INSERT INTO pub VALUES ((SELECT max(a) FROM ins_t))", mal);
        assert.equal(insRead.status, 403, insRead.body);
        assert.equal(JSON.parse(insRead.body).error, "Access denied for mal [SELECT on ins_t.a]");
        await ok("INSERT INTO pub VALUES (41)", mal);
        await ok("INSERT INTO pub VALUES ((SELECT max(x) + 1 FROM pub))", mal);
        assert.deepEqual((await ok("SELECT x FROM pub ORDER BY x", mal)).dataset, [[41], [42]]);
        // The admin still reads the hidden table.
        assert.deepEqual((await ok(`SELECT count() FROM ${HIDDEN}`)).dataset, [[0]]);
      } finally {
        await client.end().catch(() => {});
      }
    } finally {
      await server.stop();
      await Deno.remove(server.root, { recursive: true });
    }
  },
});
