/**
 * Unit tests of REST tokens (TTL limits, digests only, expiry, refresh, drop) and of the JWK
 * pieces of the ILP/TCP handshake (DER and raw signatures, all-zero and oversize signatures
 * refused, an unknown key id still challenged), without a server.
 */
import assert from "node:assert/strict";
import { AclStore } from "../../../server/auth/acl_store.ts";
import { parseTtl, RestTokens } from "../../../server/auth/rest_tokens.ts";
import { derToP1363, JwkKeys } from "../../../server/auth/jwk_keys.ts";
import { CHALLENGE_BYTES, ilpHandshake } from "../../../server/auth/ilp_handshake.ts";

async function tempStore(): Promise<{ store: AclStore; dir: string }> {
  const dir = await Deno.makeTempDir({ prefix: "qdb_auth_" });
  return { store: await AclStore.open(dir), dir };
}

Deno.test("tokens: TTL is '<n><s|m|h|d>' between 1 minute and 3650 days", () => {
  assert.equal(parseTtl("1m"), 60_000);
  assert.equal(parseTtl("60s"), 60_000);
  assert.equal(parseTtl("1D"), 86_400_000);
  assert.equal(parseTtl("3650d"), 3650 * 86_400_000);
  for (const bad of ["59s", "3651d", "1y", "", "d", "1.5h", "-1h", "1 h x"]) {
    assert.equal(parseTtl(bad), undefined, bad);
  }
});

Deno.test("tokens: stored as digests, expire, refresh and drop at once", async () => {
  const { store, dir } = await tempStore();
  try {
    const tokens = new RestTokens(store, 0);
    const a = await tokens.create("u", 60_000, false, false);
    const b = await tokens.create("u", 60_000, true, true);
    assert.match(a.token, /^qt1[A-Za-z0-9_-]{43}$/);
    assert.ok(!JSON.stringify(store.data).includes(a.token));
    assert.ok(!JSON.stringify(store.data).includes(b.token.slice(3)), "transient tokens are not stored");
    assert.equal(await tokens.identify(a.token), "u");
    assert.equal(await tokens.identify(b.token), "u");
    assert.equal(
      await tokens.identify(a.token.slice(0, -2) + "AA"),
      a.token.endsWith("AA") ? "u" : undefined,
    );
    assert.equal(await tokens.identify("qt1"), undefined);
    // Expired: the stored expiry is in the past.
    await store.update((d) => void (d.tokens[0].expiresAt = Date.now() - 1));
    assert.equal(await tokens.identify(a.token), undefined);
    // Refresh moves the expiry of a refresh token forward.
    assert.equal(await tokens.identify(b.token), "u");
    assert.equal(tokens.has("u"), true);
    assert.equal(await tokens.drop("u", b.token), true);
    assert.equal(await tokens.identify(b.token), undefined);
    assert.equal(await tokens.drop("u", b.token), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("jwk: DER and raw signatures verify; all-zero and foreign ones do not", async () => {
  const { store, dir } = await tempStore();
  try {
    const keys = new JwkKeys(store);
    const made = await keys.create("ivan");
    assert.ok(!JSON.stringify(store.data).includes(made.d), "the private key is not stored");
    const priv = await crypto.subtle.importKey(
      "jwk",
      { kty: "EC", crv: "P-256", x: made.x, y: made.y, d: made.d },
      { name: "ECDSA", namedCurve: "P-256" },
      false,
      ["sign"],
    );
    const challenge = new TextEncoder().encode("x".repeat(CHALLENGE_BYTES));
    const raw = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, priv, challenge));
    assert.equal(await keys.verify("ivan", challenge, raw), true);
    assert.equal(await keys.verify("ivan", challenge, toDer(raw)), true);
    assert.deepEqual(derToP1363(toDer(raw)), raw);
    assert.equal(await keys.verify("other", challenge, raw), false);
    assert.equal(await keys.verify("ivan", challenge, new Uint8Array(64)), false);
    assert.equal(
      await keys.verify("ivan", new TextEncoder().encode("y".repeat(CHALLENGE_BYTES)), raw),
      false,
    );
    await keys.drop("ivan");
    assert.equal(await keys.verify("ivan", challenge, raw), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ilp handshake: challenge for any key id, oversize signature lines close", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const results: unknown[] = [];
  const serving = (async () => {
    for (let i = 0; i < 2; i++) {
      const conn = await listener.accept();
      results.push(await ilpHandshake(conn, () => Promise.resolve(true)));
      conn.close();
    }
  })();
  const readChallenge = async (c: Deno.Conn) => {
    let got = new Uint8Array(0);
    while (got.length < CHALLENGE_BYTES + 1) {
      const buf = new Uint8Array(1024);
      const n = await c.read(buf);
      if (n === null) break;
      got = new Uint8Array([...got, ...buf.subarray(0, n)]);
    }
    return got;
  };
  // 1: a good exchange; data after the signature line is handed back.
  let c = await Deno.connect({ hostname: "127.0.0.1", port });
  await c.write(new TextEncoder().encode("nobody\n"));
  const ch = await readChallenge(c);
  assert.equal(ch.length, CHALLENGE_BYTES + 1);
  assert.ok(ch.subarray(0, CHALLENGE_BYTES).every((b) => b >= 0x20 && b <= 0x7e));
  await c.write(new TextEncoder().encode(btoa("sig") + "\nt v=1\n"));
  c.close();
  // 2: a signature line over 96 characters.
  c = await Deno.connect({ hostname: "127.0.0.1", port });
  await c.write(new TextEncoder().encode("k\n"));
  await readChallenge(c);
  await c.write(new TextEncoder().encode("A".repeat(120) + "\n"));
  await serving;
  c.close();
  listener.close();
  const first = results[0] as { keyId: string; rest: Uint8Array };
  assert.equal(first.keyId, "nobody");
  assert.equal(new TextDecoder().decode(first.rest), "t v=1\n");
  assert.equal(results[1], undefined);
});

/** r‖s → DER SEQUENCE of two INTEGERs. */
function toDer(raw: Uint8Array): Uint8Array {
  const int = (v: Uint8Array) => {
    let i = 0;
    while (i < v.length - 1 && v[i] === 0) i++;
    const t = v.subarray(i);
    return t[0] & 0x80 ? [0x02, t.length + 1, 0, ...t] : [0x02, t.length, ...t];
  };
  const body = [...int(raw.subarray(0, 32)), ...int(raw.subarray(32))];
  return new Uint8Array([0x30, body.length, ...body]);
}
