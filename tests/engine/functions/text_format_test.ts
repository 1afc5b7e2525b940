import assert from "node:assert/strict";
import { SqlError } from "../../../engine/base/errors.ts";
import { T } from "../../../engine/base/types.ts";
import { quoteIdent, TEXT_FORMAT_FUNCTIONS } from "../../../engine/functions/text_format.ts";
import { call, col, find, lit, returns, run } from "./_helpers.ts";

const fn = (name: string) => find(TEXT_FORMAT_FUNCTIONS, name);

Deno.test("trim, ltrim and rtrim remove whitespace", () => {
  assert.equal(run(fn("trim"), "   QuestDB   "), "QuestDB");
  assert.equal(run(fn("ltrim"), "   QuestDB   "), "QuestDB   ");
  assert.equal(run(fn("rtrim"), "Hello QuestDB   "), "Hello QuestDB");
  assert.equal(run(fn("trim"), null), null);
  assert.equal(returns(fn("trim"), [col(T.VARCHAR)]), "VARCHAR");
});

Deno.test("lpad and rpad pad or truncate to the length", () => {
  assert.equal(run(fn("lpad"), "QuestDB", 10, "0"), "000QuestDB");
  assert.equal(run(fn("rpad"), "QuestDB", 10, "xy"), "QuestDBxyx");
  assert.equal(run(fn("lpad"), "hi", 5), "   hi");
  assert.equal(run(fn("lpad"), "hello", 2), "he");
  assert.equal(run(fn("rpad"), "hello", 0), "");
  assert.equal(run(fn("lpad"), "a", 3, null), null);
  // LPadRPadFunctionsTest#testCheckMaxBuffer: past the 1 MiB string buffer the query fails
  assert.throws(
    () => call(fn("rpad"), [col(T.VARCHAR), col(T.INT)], ["w3r", 1048577]),
    /breached memory limit set for rpad\(ØI\) \[maxLength=1048576, requiredLength=1048577\]/,
  );
});

Deno.test("split_part returns the n-th field", () => {
  assert.equal(run(fn("split_part"), "a,b,c", ",", 2), "b");
  assert.equal(run(fn("split_part"), "Hello,QuestDB,SQL", ",", 2), "QuestDB");
  assert.equal(run(fn("split_part"), "a,b,c", ",", 5), "");
  assert.equal(run(fn("split_part"), "a,b,c", ",", -1), "c");
  assert.equal(run(fn("split_part"), null, ",", 1), null);
  // QuestDB reports both index errors at the index argument (SplitPartVarcharFunctionFactoryTest)
  const zero = { ...lit(0), pos: 9 };
  assert.throws(() => fn("split_part").bind([lit("a"), lit(","), zero]), (e: SqlError) => {
    return /must not be zero/.test(e.message) && e.position === 9;
  });
  const perRow = { ...col(T.INT), perRow: true, pos: 11 };
  assert.throws(() => fn("split_part").bind([lit("a"), lit(","), perRow]), (e: SqlError) => {
    return /constant expression or a placeholder/.test(e.message) && e.position === 11;
  });
});

Deno.test("quote_ident quotes only when needed", () => {
  assert.equal(quoteIdent("ab"), "ab");
  assert.equal(quoteIdent("a b"), '"a b"');
  assert.equal(quoteIdent('a"b'), '"a""b"');
  // QuestDB quotes only characters outside letters, digits, _ and $ (QuoteIdentFunctionFactoryTest).
  assert.equal(run(fn("quote_ident"), "1x"), "1x");
  assert.equal(quoteIdent("TEST"), "TEST");
  assert.equal(quoteIdent(""), "");
});

Deno.test("regexp_replace replaces every match with $n group references", () => {
  assert.equal(run(fn("regexp_replace"), "a1b22c", "[0-9]+", "#"), "a#b#c");
  assert.equal(run(fn("regexp_replace"), "John Smith", "(\\w+) (\\w+)", "$2, $1"), "Smith, John");
  assert.equal(run(fn("regexp_replace"), "cost", "cost", "\\$5"), "$5");
  assert.equal(
    call(fn("regexp_replace"), [col(T.STRING), col(T.STRING), lit("-")], ["aXbX", "X", "-"]),
    "a-b-",
  );
  assert.equal(run(fn("regexp_replace"), "John Smith", "(?<first>\\w+) (\\w+)", "${first}!"), "John!");
  assert.throws(() => fn("regexp_replace").bind([col(T.STRING), lit("("), lit("")]), /Unclosed group/);
  assert.throws(() => run(fn("regexp_replace"), "ab", "a", "$x"), /invalid replacement/);
});

Deno.test("regexp_replace is linear-time and refuses Java-only syntax", () => {
  const started = performance.now();
  assert.equal(
    run(fn("regexp_replace"), "a".repeat(100_000) + "!", "(a+)+$", "x"),
    "a".repeat(100_000) + "!",
  );
  assert.ok(performance.now() - started < 1000);
  assert.throws(
    () => fn("regexp_replace").bind([col(T.STRING), lit("(a)\\1"), lit("")]),
    /backreference not supported/,
  );
});
