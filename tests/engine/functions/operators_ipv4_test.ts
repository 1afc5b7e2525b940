import assert from "node:assert/strict";
import { SqlError } from "../../../engine/base/errors.ts";
import { T } from "../../../engine/base/types.ts";
import { parseIPv4 } from "../../../engine/functions/_ipv4.ts";
import { IPV4_OPERATORS } from "../../../engine/functions/operators_ipv4.ts";
import { bindError, call, col, find, lit } from "./_helpers.ts";

const op = (name: string) => find(IPV4_OPERATORS, name);
const ip = (s: string) => parseIPv4(s)!;

Deno.test("ip <<= subnet tests containment (QuestDB IPv4Test#testCaseIPv41)", () => {
  const rows: [string, boolean][] = [
    ["187.139.150.80", false],
    ["25.107.51.160", true],
    ["212.159.205.29", false],
    ["24.123.12.210", true],
    ["254.93.251.9", false],
    ["63.60.82.184", true],
  ];
  for (const [addr, inside] of rows) {
    assert.equal(call(op("<<="), [col(T.IPV4), lit("2.65.32.1/2")], [ip(addr), null]), inside, addr);
  }
});

Deno.test("<< is strict and >> mirrors the operands", () => {
  const x = ip("35.24.65.11");
  assert.equal(call(op("<<"), [col(T.IPV4), lit("35.24.65.2/16")], [x, null]), true);
  assert.equal(call(op("<<"), [col(T.IPV4), lit("35.24.65.11/32")], [x, null]), false);
  assert.equal(call(op("<<="), [col(T.IPV4), lit("35.24.65.11/32")], [x, null]), true);
  assert.equal(call(op(">>"), [lit("35.24.65.2/16"), col(T.IPV4)], [null, x]), true);
  assert.equal(call(op(">>="), [lit("35.24.0.0/16"), col(T.IPV4)], [null, ip("35.25.0.1")]), false);
  assert.equal(call(op("<<"), [lit("10.1.0.0/16"), lit("10.0.0.0/8")], [null, null]), true);
});

Deno.test("NULL addresses never match and bad subnets are bind errors", () => {
  assert.equal(call(op("<<="), [col(T.IPV4), lit("1.0.0.0/8")], [null, null]), false);
  assert.equal(call(op("<<="), [col(T.IPV4), col(T.STRING)], [ip("1.2.3.4"), "garbage"]), false);
  // QuestDB IPv4Test#testContainsIPv4FunctionFactoryError: "invalid argument" at the constant.
  assert.throws(
    () => bindError(op("<<"), [col(T.IPV4), lit("1.2.3.4/40")]),
    (e: unknown) => e instanceof SqlError && /invalid argument: 1\.2\.3\.4\/40/.test(e.message),
  );
  assert.match(bindError(op("<<"), [col(T.IPV4), lit(5)]), /no matching operator/);
});
