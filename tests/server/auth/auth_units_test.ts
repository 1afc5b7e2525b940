/**
 * Unit tests of server/auth without a server: salted PBKDF2 hashes, header parsing, and GRANT /
 * REVOKE normalisation and splitting on an AclStore in a temporary folder.
 */
import assert from "node:assert/strict";
import { hashPassword, verifyPassword } from "../../../server/auth/password.ts";
import { credentialsOf } from "../../../server/auth/http_credentials.ts";
import { AclStore, holds } from "../../../server/auth/acl_store.ts";
import { addGrant, removeGrant } from "../../../server/auth/grant_statement.ts";

Deno.test("password hashes are salted and verify only the right password", async () => {
  const a = await hashPassword("quest", 1000);
  const b = await hashPassword("quest", 1000);
  assert.notEqual(a.hash, b.hash);
  assert.ok(!JSON.stringify(a).includes("quest"));
  assert.equal(await verifyPassword("quest", a), true);
  assert.equal(await verifyPassword("Quest", a), false);
});

Deno.test("credentials: Basic splits at the first colon; malformed headers are not credentials", () => {
  const h = (v: string) => new Headers({ authorization: v });
  assert.deepEqual(credentialsOf(h("Basic " + btoa("u:p:w"))), { kind: "basic", user: "u", password: "p:w" });
  assert.equal(credentialsOf(h("Basic " + btoa("nocolon"))).kind, "malformed");
  assert.equal(credentialsOf(h("Basic %%%")).kind, "malformed");
  assert.deepEqual(credentialsOf(h("Bearer abc")), { kind: "bearer", token: "abc" });
  assert.equal(credentialsOf(new Headers({ cookie: "a=b; qdb_session=qs1xyz" })).kind, "session");
  assert.equal(credentialsOf(new Headers()).kind, "none");
});

Deno.test("grants: a wider grant absorbs narrower ones, and a narrower revoke splits it", async () => {
  const root = await Deno.makeTempDir();
  try {
    const store = await AclStore.open(root);
    const catalog = {
      tables: () => ["t", "u"],
      columns: (t: string) => (t === "t" ? ["ts", "a", "b"] : ["x"]),
    };
    const item = (table?: string, column?: string) => ({
      permission: "SELECT",
      pos: 0,
      target: {
        level: (column ? "column" : table ? "table" : "database") as "database" | "table" | "column",
        table,
        column,
      },
    });
    await store.update((d) => addGrant(d, "bob", item("t", "a"), false));
    await store.update((d) => addGrant(d, "bob", item(), false));
    assert.equal(store.grantsOf(["bob"]).length, 1);
    await store.update((d) => removeGrant(d, "bob", item("t", "b"), catalog));
    const g = store.grantsOf(["bob"]);
    assert.equal(holds(g, "SELECT", "u"), true);
    assert.equal(holds(g, "SELECT", "t", "a"), true);
    assert.equal(holds(g, "SELECT", "t", "b"), false);
    assert.equal(holds(g, "SELECT", "t"), false);
    assert.equal(holds(g, "SELECT", "t", "a", true), false);
    const reopened = await AclStore.open(root);
    assert.deepEqual(reopened.grantsOf(["bob"]), g);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("acl.oidc.end.session.endpoint: unset, auto (discovery) or an absolute URL", async () => {
  const { endSessionEndpointOf, oidcSettings } = await import("../../../server/auth/oidc_config.ts");
  const settings = (extra: Record<string, string>) =>
    oidcSettings({ get: (k) => ({ "acl.oidc.enabled": "true", ...extra })[k] });
  const discovered = {
    authorization: "https://idp/auth",
    token: "https://idp/token",
    userinfo: "https://idp/me",
    jwks: "https://idp/jwks",
    endSession: "https://idp/session/end",
  };
  assert.equal(endSessionEndpointOf(settings({}), discovered), null);
  assert.equal(endSessionEndpointOf(settings({ "acl.oidc.end.session.endpoint": "" }), discovered), null);
  assert.equal(
    endSessionEndpointOf(settings({ "acl.oidc.end.session.endpoint": "auto" }), discovered),
    "https://idp/session/end",
  );
  assert.equal(
    endSessionEndpointOf(settings({ "acl.oidc.end.session.endpoint": "AUTO" }), {
      ...discovered,
      endSession: undefined,
    }),
    null,
  );
  assert.equal(
    endSessionEndpointOf(settings({ "acl.oidc.end.session.endpoint": "https://other/logout" }), discovered),
    "https://other/logout",
  );
});
