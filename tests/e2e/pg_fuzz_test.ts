/**
 * Malformed and hostile input on the pg port (issue 4 evidence): truncated messages, wrong
 * and huge length prefixes, random bytes before and after startup, unknown message types,
 * and thousands of random mutations of valid traffic. Each connection gets an error or is
 * closed; the server stays up and serves the next connection.
 */
import assert from "node:assert/strict";
import { startServer } from "./server_process.ts";
import {
  concat,
  cstr,
  login,
  message,
  messageTypes,
  password,
  query,
  readSome,
  readUntilReady,
  serverAnswers,
  startupPacket,
} from "./clients/pg_raw.ts";

function int32(n: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setInt32(0, n);
  return b;
}

/** Sends `bytes` on a fresh connection (after logging in when `authenticated`), reads briefly, closes. */
async function poke(port: number, bytes: Uint8Array, authenticated: boolean): Promise<Uint8Array | null> {
  const conn = authenticated ? await login(port) : await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(bytes).catch(() => 0);
    return await readSome(conn, 30);
  } finally {
    try {
      conn.close();
    } catch { /* closed by the server */ }
  }
}

/** A small deterministic PRNG so a failure can be replayed. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const VALID_TRAFFIC = [
  query("select 1"),
  concat(
    message("P", concat(cstr(""), cstr("select $1::int + 1"), new Uint8Array([0, 1, 0, 0, 0, 23]))),
    message(
      "B",
      concat(
        cstr(""),
        cstr(""),
        new Uint8Array([0, 0, 0, 1]),
        int32(1),
        new TextEncoder().encode("5"),
        new Uint8Array([0, 0]),
      ),
    ),
    message("D", concat(new TextEncoder().encode("P"), cstr(""))),
    message("E", concat(cstr(""), int32(0))),
    message("S"),
  ),
];

Deno.test({
  name: "hostile and malformed pg input never takes the server down",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer({ pg: true });
    const port = server.pgPort;
    try {
      // Hand-written cases.
      await poke(port, new Uint8Array([0, 0, 0]), false); // truncated length
      await poke(port, concat(int32(4), int32(196608)), false); // length too small
      await poke(port, concat(int32(0x7fffffff), int32(196608)), false); // huge start packet
      await poke(port, concat(int32(16), int32(12345678), int32(0), int32(0)), false); // unknown code
      await poke(port, concat(int32(16), int32(80877102), int32(999), int32(1)), false); // bogus cancel
      const badPassword = await (async () => {
        const conn = await Deno.connect({ hostname: "127.0.0.1", port });
        await conn.write(startupPacket());
        await readSome(conn, 2000);
        await conn.write(password("wrong"));
        const reply = await readUntilReady(conn, 2000);
        conn.close();
        return reply;
      })();
      assert.equal(badPassword, "E");
      const huge = await poke(port, concat(new TextEncoder().encode("Q"), int32(0x7ffffff0)), true);
      assert.ok(huge === null || messageTypes(huge).startsWith("E"));
      const unknown = await (async () => {
        const conn = await login(port);
        await conn.write(message("F", int32(0)));
        const first = await readUntilReady(conn, 2000);
        await conn.write(query("select 2"));
        const second = await readUntilReady(conn, 2000);
        conn.close();
        return [first, second];
      })();
      assert.deepEqual(unknown, ["EZ", "TDCZ"]);
      await poke(
        port,
        message("B", concat(cstr(""), cstr(""), new Uint8Array([0, 0, 0, 1]), int32(1000))),
        true,
      );
      await poke(port, message("P", new TextEncoder().encode("no terminator")), true);
      await poke(port, message("D", new TextEncoder().encode("X")), true);
      await poke(port, new Uint8Array([0x51, 0, 0, 0, 2]), true); // length < 4
      assert.ok(await serverAnswers(port), "server answers after the hand-written cases");

      // Random input: raw bytes before startup, and mutated valid traffic after it.
      const random = prng(42);
      const bytes = (n: number) => Uint8Array.from({ length: n }, () => Math.floor(random() * 256));
      for (let i = 0; i < 2000; i++) {
        const kind = i % 4;
        if (kind === 0) await poke(port, bytes(1 + Math.floor(random() * 64)), false);
        else if (kind === 1) {
          await poke(port, concat(startupPacket(), bytes(Math.floor(random() * 64))), false);
        } else {
          const valid = VALID_TRAFFIC[Math.floor(random() * VALID_TRAFFIC.length)].slice();
          for (let k = 0; k < 1 + Math.floor(random() * 4); k++) {
            valid[Math.floor(random() * valid.length)] = Math.floor(random() * 256);
          }
          await poke(port, kind === 2 ? valid : concat(valid, bytes(Math.floor(random() * 32))), true);
        }
        if (i % 250 === 249) {
          assert.ok(await serverAnswers(port), `server answers after ${i + 1} random inputs`);
        }
      }
      assert.ok(await serverAnswers(port), "server answers after the fuzzing");
    } finally {
      await server.stop();
    }
  },
});
