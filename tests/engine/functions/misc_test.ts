import assert from "node:assert/strict";
import { T } from "../../../engine/base/types.ts";
import { MISC_FUNCTIONS, uuidFromHalves } from "../../../engine/functions/misc.ts";
import { bind, call, col, find, lit, returns, run, testContext } from "./_helpers.ts";

const fn = (name: string) => find(MISC_FUNCTIONS, name);

Deno.test("session functions read the context or answer fixed text (§17.4)", () => {
  const ctx = { ...testContext(), user: "alice" };
  assert.equal(call(fn("current_user"), [], [], ctx), "alice");
  assert.equal(call(fn("session_user"), [], [], ctx), "alice");
  assert.equal(bind(fn("current_user"), []).deterministic, false);
  assert.equal(run(fn("current_database")), "qdb");
  assert.equal(run(fn("current_schema")), "public");
  assert.match(run(fn("version")) as string, /^PostgreSQL 12\.3, .*QuestDB/);
  assert.equal(run(fn("pg_catalog.version")), run(fn("version")));
  assert.match(run(fn("build")) as string, /^Build Information: QuestDB/);
  assert.equal(run(fn("flush_query_cache")), true);
  assert.equal(run(fn("reload_config")), true);
});

Deno.test("hash functions give the documented hex digests", () => {
  assert.equal(run(fn("md5"), "abc"), "900150983cd24fb0d6963f7d28e17f72");
  assert.equal(run(fn("md5"), ""), "d41d8cd98f00b204e9800998ecf8427e");
  assert.equal(run(fn("md5"), "Hello, world!"), "6cd3556deb0da54bca060b4c39479839");
  assert.equal(run(fn("sha1"), "abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
  assert.equal(run(fn("sha256"), "abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assert.equal(run(fn("sha256"), null), null);
  assert.equal(
    call(fn("md5"), [col(T.BINARY)], [new TextEncoder().encode("abc")]),
    "900150983cd24fb0d6963f7d28e17f72",
  );
});

Deno.test("typeOf and pg_typeof name the argument type", () => {
  assert.equal(call(fn("typeof"), [col(T.IPV4)], [null]), "IPv4");
  assert.equal(run(fn("typeof"), 1), "INT");
  assert.equal(call(fn("pg_typeof"), [col(T.LONG)], [null]), "bigint");
});

Deno.test("to_uuid joins two longs and netmask gives a subnet mask", () => {
  assert.equal(uuidFromHalves(1n, 2n), "00000000-0000-0002-0000-000000000001");
  assert.equal(run(fn("to_uuid"), 1n, 2n), "00000000-0000-0002-0000-000000000001");
  assert.equal(run(fn("to_uuid"), null, null), null);
  assert.equal(returns(fn("to_uuid"), [lit(1n), lit(2n)]), "UUID");
  assert.equal(run(fn("netmask"), "68.11.9.2/8"), 0xff000000);
  assert.equal(run(fn("netmask"), "68.11.9.2/23"), 0xfffffe00);
  assert.equal(run(fn("netmask"), "68.11.9.2"), null);
});

Deno.test("to_char(binary) is QuestDB's hex dump, 16 bytes a line", () => {
  // ToCharBinVFunctionFactoryTest: "00000000 56 54 ..." lines; NULL stays NULL
  const to = find(MISC_FUNCTIONS, "to_char");
  const bytes = Uint8Array.from({ length: 18 }, (_, i) => 0x41 + i);
  assert.equal(
    call(to, [col(T.BINARY)], [bytes]),
    "00000000 41 42 43 44 45 46 47 48 49 4a 4b 4c 4d 4e 4f 50\n00000010 51 52",
  );
  assert.equal(call(to, [col(T.BINARY)], [null]), null);
  assert.equal(returns(to, [col(T.BINARY)]), "STRING");
});
