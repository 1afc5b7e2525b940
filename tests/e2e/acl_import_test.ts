/**
 * REST /imp and /exp under access control (security.md §2.2, T15, T16): importing into an
 * existing table needs INSERT on it, creating one needs CREATE TABLE (and makes the importer
 * its owner), new columns need ADD COLUMN, `overwrite=true` needs DROP TABLE; refusals are 403
 * and write nothing. /exp reads need SELECT exactly as /exec.
 */
import assert from "node:assert/strict";
import { ACL_ENV, basic, runner } from "./acl_helpers.ts";
import { startServer } from "./server_process.ts";

async function imp(
  httpUrl: string,
  auth: string,
  table: string,
  csv: string,
  query = "",
): Promise<{ status: number; body: string }> {
  const form = new FormData();
  form.append("data", new Blob([csv], { type: "text/csv" }), table);
  const res = await fetch(`${httpUrl}/imp?fmt=json&name=${encodeURIComponent(table)}${query}`, {
    method: "POST",
    headers: { authorization: auth },
    body: form,
  });
  return { status: res.status, body: await res.text() };
}

Deno.test({
  name: "acl: /imp checks INSERT, CREATE TABLE, ADD COLUMN and DROP TABLE per table; /exp needs SELECT",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ env: ACL_ENV });
    const { ok } = runner(server.httpUrl);
    const ivy = basic("ivy", "pw");
    const refused = (r: { status: number; body: string }, status: string) => {
      assert.equal(r.status, 403, r.body);
      assert.equal(JSON.parse(r.body).status, status);
    };
    const imported = (r: { status: number; body: string }) => {
      assert.equal(r.status, 200, r.body);
      const j = JSON.parse(r.body);
      assert.equal(j.status, "OK", r.body);
      return j.rowsImported as number;
    };
    const count = async (t: string) => (await ok(`select count() from ${t}`)).dataset[0][0];
    try {
      await ok("create table known (a int, b string)");
      await ok("create user ivy with password 'pw'");
      await ok("grant http to ivy");

      refused(
        await imp(server.httpUrl, ivy, "known", "a,b\n1,x\n"),
        "Access denied for ivy [INSERT on known]",
      );
      assert.equal(await count("known"), 0);
      refused(
        await imp(server.httpUrl, ivy, "fresh", "a,b\n1,x\n"),
        "Access denied for ivy [CREATE TABLE]",
      );
      assert.equal((await ok("show tables")).dataset.some((r: string[]) => r[0] === "fresh"), false);

      await ok("grant insert on known to ivy");
      assert.equal(imported(await imp(server.httpUrl, ivy, "known", "a,b\n1,x\n2,y\n")), 2);
      assert.equal(await count("known"), 2);
      refused(
        await imp(server.httpUrl, ivy, "known", "a,b,c\n3,z,9\n"),
        "Access denied for ivy [ADD COLUMN on known.c]",
      );
      assert.equal(await count("known"), 2);
      refused(
        await imp(server.httpUrl, ivy, "known", "a,b\n5,q\n", "&overwrite=true"),
        "Access denied for ivy [DROP TABLE on known]",
      );
      assert.equal(await count("known"), 2);

      // CREATE TABLE: the importer owns what it creates (it may read and append later).
      await ok("grant create table to ivy");
      assert.equal(imported(await imp(server.httpUrl, ivy, "fresh", "a,b\n1,x\n")), 1);
      assert.equal(imported(await imp(server.httpUrl, ivy, "fresh", "a,b\n2,y\n")), 1);
      assert.equal((await ok("select count() from fresh", ivy)).dataset[0][0], 2);
      assert.equal(imported(await imp(server.httpUrl, ivy, "fresh", "a,b\n7,z\n", "&overwrite=true")), 1);
      assert.equal(await count("fresh"), 1);

      // ILP over HTTP: the same rules; a table created by a write is owned by the writer.
      const ilpWrite = async (line: string) => {
        const res = await fetch(`${server.httpUrl}/write`, {
          method: "POST",
          headers: { authorization: ivy },
          body: line,
        });
        return { status: res.status, body: await res.text() };
      };
      assert.equal((await ilpWrite("ilp_new v=1\n")).status, 204);
      assert.equal((await ilpWrite("ilp_new v=2\n")).status, 204);
      assert.equal((await ok("select count() from ilp_new", ivy)).dataset[0][0], 2);
      await ok("create table locked (v double)");
      const lockedWrite = await ilpWrite("locked v=1\n");
      assert.equal(lockedWrite.status, 403);
      assert.equal(JSON.parse(lockedWrite.body).code, "unauthorised");
      assert.match(lockedWrite.body, /Access denied for ivy \[INSERT on locked\]/);

      // /exp: SELECT as for /exec.
      const exp = (sql: string) =>
        fetch(`${server.httpUrl}/exp?query=${encodeURIComponent(sql)}`, { headers: { authorization: ivy } });
      let res = await exp("select * from known");
      assert.equal(res.status, 403);
      assert.match(await res.text(), /Access denied for ivy \[SELECT on known\.a\]/);
      await ok("grant select on known(a) to ivy");
      res = await exp("select a from known");
      assert.equal(res.status, 200);
      assert.equal(await res.text(), '"a"\r\n1\r\n2\r\n');
      res = await exp("select b from known");
      assert.equal(res.status, 403);
      await res.body?.cancel();
      res = await fetch(`${server.httpUrl}/exp?query=${encodeURIComponent("select a from known")}`);
      assert.equal(res.status, 401);
      await res.body?.cancel();
    } finally {
      await server.stop();
      await Deno.remove(server.root, { recursive: true });
    }
  },
});
