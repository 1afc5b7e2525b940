/** json_extract (engine/functions/json_extract.ts) over QuestDB's documented JSONPath subset. */
import assert from "node:assert/strict";
import { jsonExtract, parseJsonPath } from "../../../engine/functions/json_extract.ts";

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
