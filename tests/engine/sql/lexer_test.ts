import assert from "node:assert/strict";
import { tokenize } from "../../../engine/sql/lexer.ts";
import { sqlError } from "./_helpers.ts";

function kinds(sql: string): string[] {
  return tokenize(sql).map((t) => `${t.kind}:${t.text}`);
}

Deno.test("lexer keeps the offset of a quoted identifier", () => {
  const tokens = tokenize('select "My ""Col"" x" from t');
  assert.equal(tokens[1].kind, "quoted");
  assert.equal(tokens[1].pos, 7);
  assert.equal(tokens[1].end, 21);
  assert.equal(tokens[1].value, 'My "Col" x');
  assert.equal(tokens[2].pos, 22);
});

Deno.test("lexer counts offsets in UTF-16 code units", () => {
  const tokens = tokenize("select '😀é', x");
  assert.equal(tokens[1].value, "😀é");
  assert.equal(tokens[1].end, 12);
  assert.equal(tokens[3].pos, 14);
});

Deno.test("lexer reads words case as written and leaves keywords to the parser", () => {
  assert.deepEqual(kinds("SeLeCt Price_1 from"), ["word:SeLeCt", "word:Price_1", "word:from", "eof:"]);
  assert.deepEqual(kinds("select prix_été"), ["word:select", "word:prix_été", "eof:"]);
});

Deno.test("lexer keeps numeric suffixes in the number token", () => {
  assert.deepEqual(
    kinds("123 1_000_000 123L 1.5 .5 1e10 1e-5 1.5f 3d 3.0D 123.45m 0x1fAB 15m 3H"),
    [
      "number:123",
      "number:1_000_000",
      "number:123L",
      "number:1.5",
      "number:.5",
      "number:1e10",
      "number:1e-5",
      "number:1.5f",
      "number:3d",
      "number:3.0D",
      "number:123.45m",
      "number:0x1fAB",
      "number:15m",
      "number:3H",
      "eof:",
    ],
  );
});

Deno.test("lexer reads a dot after a name as qualification, not a number", () => {
  assert.deepEqual(kinds("t.col a.5"), ["word:t", "op:.", "word:col", "word:a", "op:.", "number:5", "eof:"]);
  assert.deepEqual(kinds("(x).5"), ["op:(", "word:x", "op:)", "op:.", "number:5", "eof:"]);
});

Deno.test("lexer unescapes strings and treats E'...' as a plain string", () => {
  const tokens = tokenize("'it''s' E'te''xt' ''");
  assert.deepEqual(tokens.map((t) => [t.kind, t.value]), [
    ["string", "it's"],
    ["string", "te'xt"],
    ["string", ""],
    ["eof", ""],
  ]);
  assert.equal(tokens[1].text, "E'te''xt'");
});

Deno.test("lexer reads geohash literals", () => {
  // The `/bits` suffix is its own tokens, read by the parser (QuestDB's ExpressionParser).
  assert.deepEqual(kinds("#u33d8 #u33d/18 ##0101 #sp@in"), [
    "geohash:#u33d8",
    "geohash:#u33d",
    "op:/",
    "number:18",
    "geohash:##0101",
    "geohash:#sp@in",
    "eof:",
  ]);
});

Deno.test("lexer tells bind variables from the cast operator", () => {
  assert.deepEqual(kinds("$1 ? :name a::int @v := 1"), [
    "param:$1",
    "param:?",
    "param::name",
    "word:a",
    "op:::",
    "word:int",
    "variable:@v",
    "op::=",
    "number:1",
    "eof:",
  ]);
});

Deno.test("lexer takes the longest operator", () => {
  assert.deepEqual(
    kinds("a<<=b>>=c<<d>>e<=f>=g<>h!=i!~j||k~l^m&n|o%p"),
    [
      "word:a",
      "op:<<=",
      "word:b",
      "op:>>=",
      "word:c",
      "op:<<",
      "word:d",
      "op:>>",
      "word:e",
      "op:<=",
      "word:f",
      "op:>=",
      "word:g",
      "op:<>",
      "word:h",
      "op:!=",
      "word:i",
      "op:!~",
      "word:j",
      "op:||",
      "word:k",
      "op:~",
      "word:l",
      "op:^",
      "word:m",
      "op:&",
      "word:n",
      "op:|",
      "word:o",
      "op:%",
      "word:p",
      "eof:",
    ],
  );
});

Deno.test("lexer skips line comments, block comments and hints", () => {
  assert.deepEqual(kinds("select /*+ USE_INDEX(x) */ a -- trailing\n, b /* x\ny */"), [
    "word:select",
    "word:a",
    "op:,",
    "word:b",
    "eof:",
  ]);
});

Deno.test("lexer reports an unterminated string at its start", () => {
  const e = sqlError(() => tokenize("select 'abc, x from t"));
  assert.equal(e.kind, "syntax");
  assert.equal(e.position, 7);
  assert.match(e.message, /unclosed quoted string/);
});

Deno.test("lexer quotes identifiers with backticks as QuestDB does", () => {
  const tokens = tokenize("select `column`, `a``b` from t");
  assert.deepEqual(tokens.slice(1, 4).map((t) => [t.kind, t.value]), [
    ["quoted", "column"],
    ["op", ","],
    ["quoted", "a`b"],
  ]);
});

Deno.test("lexer reports an unterminated quoted identifier and comment at their start", () => {
  const q = sqlError(() => tokenize('select a from "tab'));
  assert.equal(q.position, 14);
  assert.match(q.message, /unclosed quoted identifier/);
  const c = sqlError(() => tokenize("select 1 /* no end"));
  assert.equal(c.position, 9);
});

Deno.test("lexer passes a stray character on as an operator token", () => {
  const tokens = tokenize("select \\a");
  assert.equal(tokens[1].kind, "op");
  assert.equal(tokens[1].text, "\\");
  assert.equal(tokens[1].pos, 7);
});

Deno.test("lexer ends with one eof token at the end of the text", () => {
  const tokens = tokenize("  ");
  assert.equal(tokens.length, 1);
  assert.equal(tokens[0].kind, "eof");
  assert.equal(tokens[0].pos, 2);
});

Deno.test("lexer reads PostgreSQL dollar-quoted strings verbatim", () => {
  const tokens = tokenize("select $$it's; -- not a comment$$, $fn$a $$ b$fn$, $1");
  assert.equal(tokens[1].kind, "string");
  assert.equal(tokens[1].value, "it's; -- not a comment");
  assert.equal(tokens[3].value, "a $$ b");
  assert.equal(tokens[5].kind, "param");
  assert.match(sqlError(() => tokenize("select $x$ open")).message, /unterminated dollar-quoted string/);
});
