/**
 * The pieces of issue 9/10 that need no socket: SCRAM-SHA-256 keys against the RFC 7677
 * example, the statement_timeout values PostgreSQL accepts, startup `options` parsing, and
 * the TLS configuration keys.
 */
import assert from "node:assert/strict";
import { checkScramProof, fromBase64, scramVerifier, toBase64 } from "../../../server/scram.ts";
import {
  parseStartupOptions,
  parseStatementTimeout,
  sessionTimeoutMs,
} from "../../../server/pg/statement_timeout.ts";
import { Config } from "../../../server/config.ts";
import { errorFieldsOf } from "../../../server/pg/sqlstate.ts";
import { SqlError } from "../../../engine/mod.ts";

Deno.test("SCRAM-SHA-256 verifier and proof match the RFC 7677 example", async () => {
  const v = await scramVerifier("pencil", 4096, fromBase64("W22ZaJ0SNY7soEsUEjb6gQ=="));
  const clientFirstBare = "n=user,r=rOprNGfwEbeRWgbNEkqO";
  const serverFirst =
    "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096";
  const finalWithoutProof = "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0";
  const authMessage = `${clientFirstBare},${serverFirst},${finalWithoutProof}`;
  const proof = fromBase64("dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=");
  const signature = await checkScramProof(v, authMessage, proof);
  assert.ok(signature);
  assert.equal(toBase64(signature), "6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=");
  // One flipped bit, a short proof, or another message: no signature.
  const bad = proof.slice();
  bad[0] ^= 1;
  assert.equal(await checkScramProof(v, authMessage, bad), undefined);
  assert.equal(await checkScramProof(v, authMessage, proof.subarray(0, 31)), undefined);
  assert.equal(await checkScramProof(v, authMessage + "x", proof), undefined);
  // A verifier keeps no password and fresh salts differ.
  const a = await scramVerifier("pencil"), b = await scramVerifier("pencil");
  assert.notEqual(a.salt, b.salt);
  assert.doesNotMatch(JSON.stringify(a), /pencil/);
});

Deno.test("statement_timeout values: ms by default, PostgreSQL units, garbage refused", () => {
  assert.equal(parseStatementTimeout("500"), 500);
  assert.equal(parseStatementTimeout("5s"), 5000);
  assert.equal(parseStatementTimeout(" 2 min "), 120_000);
  assert.equal(parseStatementTimeout("1h"), 3_600_000);
  assert.equal(parseStatementTimeout("0"), 0);
  assert.equal(parseStatementTimeout("soon"), undefined);
  assert.equal(parseStatementTimeout("-1"), undefined);
  assert.equal(sessionTimeoutMs(new Map(), 60_000), 60_000);
  assert.equal(sessionTimeoutMs(new Map([["statement_timeout", "250"]]), 60_000), 250);
  assert.equal(sessionTimeoutMs(new Map([["statement_timeout", "0"]]), 60_000), 0);
  assert.equal(sessionTimeoutMs(new Map([["statement_timeout", "bad"]]), 60_000), 60_000);
});

Deno.test("startup options: -c name=value pairs, --name=value, escaped spaces", () => {
  assert.deepEqual(parseStartupOptions("-c statement_timeout=500"), new Map([["statement_timeout", "500"]]));
  assert.deepEqual(
    parseStartupOptions("-cstatement_timeout=5s --search-path=a\\ b -c x"),
    new Map([["statement_timeout", "5s"], ["search_path", "a b"]]),
  );
  assert.deepEqual(parseStartupOptions(""), new Map());
});

Deno.test("engine timeouts become SQLSTATE 57014 with PostgreSQL's wording", () => {
  const f = errorFieldsOf(new SqlError("timeout, query aborted [timeout=500ms]", -1, "limit"));
  assert.equal(f.code, "57014");
  assert.equal(f.message, "canceling statement due to statement timeout [timeout=500ms]");
});

Deno.test("TLS keys: per listener, falling back to tls.*, refused without files", () => {
  const env = (e: Record<string, string>) => new Config({}, e);
  assert.equal(env({}).tls("pg"), undefined);
  assert.deepEqual(
    env({ QDB_PG_TLS_ENABLED: "true", QDB_PG_TLS_CERT_PATH: "/c.pem", QDB_PG_TLS_PRIVATE_KEY_PATH: "/k.pem" })
      .tls("pg"),
    { certPath: "/c.pem", keyPath: "/k.pem" },
  );
  const global = new Config({ "tls.enabled": "true", "tls.cert.path": "/c", "tls.key.path": "/k" }, {});
  assert.deepEqual(global.tls("http"), { certPath: "/c", keyPath: "/k" });
  assert.equal(
    new Config({
      "tls.enabled": "true",
      "http.tls.enabled": "false",
      "tls.cert.path": "/c",
      "tls.private.key.path": "/k",
    }, {}).tls("http"),
    undefined,
  );
  assert.throws(() => env({ QDB_HTTP_TLS_ENABLED: "true" }).tls("http"), /http.tls.cert.path/);
});
