import assert from "node:assert/strict";
import { configureLog, log, type LogLevel, redactSql } from "../../../engine/base/log.ts";

Deno.test("redactSql hides password, secret and token literals and REST tokens", () => {
  assert.equal(
    redactSql("CREATE USER bob WITH PASSWORD 'it''s secret'"),
    "CREATE USER bob WITH PASSWORD '****'",
  );
  assert.equal(redactSql("alter user bob with password='x'"), "alter user bob with password='****'");
  assert.equal(redactSql("select 'qt1abcdef' t"), "select '****' t");
  assert.equal(redactSql("select 'password' from t"), "select 'password' from t");
});

Deno.test("log writes one line per event with level and component, filtered by log.level", () => {
  const lines: [LogLevel, string][] = [];
  configureLog({ level: "error", write: (level, line) => lines.push([level, line]) });
  try {
    log("I", "sql", "hidden at error");
    log("E", "pg", "first\nsecond");
    log("A", "checkpoint", "advisory is always shown");
    assert.equal(lines.length, 2);
    configureLog({ level: "advisory" });
    log("E", "pg", "hidden at advisory");
    log("C", "server", "cannot start: critical is always shown");
    assert.equal(lines.length, 3);
    assert.match(lines[2][1], / C server cannot start: critical is always shown$/);
    assert.match(lines[0][1], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z E pg first\\nsecond$/);
    assert.match(lines[1][1], / A checkpoint advisory is always shown$/);
    assert.throws(() => configureLog({ level: "loud" }), /log\.level must be debug, info/);
  } finally {
    configureLog({
      level: "info",
      write: (level, line) => (level === "E" ? console.error : console.log)(line),
    });
  }
});
