/** json_extract (engine/functions/json_extract.ts) over QuestDB's documented JSONPath subset. */
import assert from "node:assert/strict";
import { type ColumnType, T } from "../../../engine/base/types.ts";
import { jsonExtract, jsonExtractAs, parseJsonPath } from "../../../engine/functions/json_extract.ts";

const get = (doc: string, path: string) => jsonExtract(doc, parseJsonPath(path)!);

Deno.test("json_extract returns strings unescaped and other values as raw tokens", () => {
  const doc = '{"q": 1000, "p": 145.090, "s": "a\\"b", "x": {"ts": [{"t": "2023"}, {"t": null}]}}';
  assert.equal(get(doc, "$.q"), "1000");
  assert.equal(get(doc, "$.p"), "145.090");
  assert.equal(get(doc, "$.s"), 'a"b');
  assert.equal(get(doc, "$.x.ts[0].t"), "2023");
  assert.equal(get(doc, "$.x.ts[1].t"), null); // JSON null
  assert.equal(get(doc, "$.x.ts[2]"), null); // past the end
  assert.equal(get(doc, "$.missing"), null);
  assert.equal(get("[0.25, 0.5]", "$"), "[0.25, 0.5]");
  assert.equal(get("{broken", "$.a"), null);
  assert.equal(parseJsonPath("$.a[x]"), undefined);
});

Deno.test("json_extract(...)::type converts the JSON value as json.md's table says", () => {
  const at = (doc: string, path: string, to: ColumnType) => jsonExtractAs(doc, parseJsonPath(path)!, to);
  assert.equal(at('{"qty": 10000}', "$.qty", T.LONG), 10000n);
  assert.equal(at('{ "qty": "9999999" }', "$.qty", T.LONG), 9999999n);
  assert.equal(at("1.75", "$", T.LONG), 1n);
  assert.equal(at('{"price": null}', "$.price", T.DOUBLE), null);
  assert.equal(at("[true]", "$[0]", T.BOOLEAN), true);
  assert.equal(at('["true"]', "$[0]", T.BOOLEAN), false);
  assert.equal(at('{"qty": null}', "$.qty", T.SHORT), 0);
  assert.equal(at('{"qty": 1000000}', "$.qty", T.SHORT), 0);
  assert.equal(at('{"a": true}', "$.a", T.INT), 1);
  assert.equal(at('{"a": [1]}', "$.a", T.INT), null);
  assert.equal(at('{"a": 1000}', "$.a", T.DATE), 1000n);
  assert.equal(at('{"a": "2023-07-12T10:00:00Z"}', "$.a", T.TIMESTAMP), 1689156000000000n);
  // JsonExtractCastScenariosTest: exact LONG text, DATE from number text, IPV4 from an INT-range integer
  assert.equal(at('{"a": "9223372036854775807"}', "$.a", T.LONG), 9223372036854775807n);
  assert.equal(at('{"a": "1"}', "$.a", T.DATE), 1n);
  assert.equal(at('{"a": "1"}', "$.a", T.TIMESTAMP), null);
  assert.equal(at('{"a": 9223372036854775807}', "$.a", T.TIMESTAMP), 9223372036854775807n);
  assert.equal(at('{"a": 1e308}', "$.a", T.TIMESTAMP), null);
  assert.equal(at('{"a": -1}', "$.a", T.IPV4), 0xffffffff);
  assert.equal(at('{"a": 0}', "$.a", T.IPV4), null);
  assert.equal(at('{"a": 1.0}', "$.a", T.IPV4), null);
  assert.equal(at('{"a": 2147483648}', "$.a", T.IPV4), null);
  assert.equal(at('{"a": "1.2.3.4"}', "$.a", T.IPV4), 0x01020304);
  // A malformed document is NULL even where the path's value could be read.
  assert.equal(jsonExtract('{"name": "Lisa"', parseJsonPath("$.name")!), null);
});
