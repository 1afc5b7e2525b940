/**
 * Runs a `setFunction` node (plan/plan_set_function.ts): its arguments are evaluated now (a
 * LATERAL or correlated run has its outer values in the context), then each call's rows are
 * produced and zipped, NULL past the end of the shorter ones.
 */
import { SqlError } from "../base/errors.ts";
import { BATCH_ROWS_MAX } from "../base/limits.ts";
import { type Batch, DoubleArray, type Value } from "../base/values.ts";
import { jsonExtractAs } from "../functions/json_extract.ts";
import { parseTextArray } from "../functions/pg_text_arrays.ts";
import { arrayElements } from "../functions/pg_functions.ts";
import type { PlanNode, SetCall } from "../plan/plan_node.ts";
import { rowsToBatches } from "./batch_util.ts";
import { compileExpr } from "./compile_expr.ts";
import { type ExecContext, pace } from "./exec_context.ts";
import { runSeries, seriesOf } from "./generate_series.ts";

const ONE_ROW: Batch = { rowCount: 1, columns: [] };

/** A text array's elements and the subscript of its first: catalog vectors count from 0. */
function elements(text: string, vector: boolean): { items: (string | null)[]; lower: number } {
  if (vector) return arrayElements(text);
  return { items: parseTextArray(text), lower: 1 };
}

/** QuestDB's `cairo.json.unnest.max.value.size` default: the largest VARCHAR/TIMESTAMP field text. */
const JSON_UNNEST_MAX_VALUE_SIZE = 4096;
const utf8 = new TextEncoder();

/** A text field longer than the limit fails the query rather than being cut (JsonUnnestTest#testLargeVarcharOverflowThrowsError). */
function checkJsonValueSize(text: string, column: string): void {
  if (text.length * 3 <= JSON_UNNEST_MAX_VALUE_SIZE) return;
  if (utf8.encode(text).length <= JSON_UNNEST_MAX_VALUE_SIZE) return;
  throw new SqlError(
    `JSON UNNEST: value exceeds maximum size of ${JSON_UNNEST_MAX_VALUE_SIZE} bytes for column '${column}'`,
    0,
  );
}

/** A JSON number as written. */
class JsonNumber {
  constructor(readonly text: string) {}
}

/** The elements of a JSON array text; anything else (NULL, empty, invalid JSON, not an array) has none. */
function jsonElements(text: Value): unknown[] {
  if (typeof text !== "string" || text.trim() === "") return [];
  try {
    // Numbers keep their text: a double cannot hold every LONG (9223372036854775807).
    const v = JSON.parse(
      text,
      (_key, value, context?: { source?: string }) =>
        typeof value === "number" && context?.source !== undefined ? new JsonNumber(context.source) : value,
    );
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

function callValues(call: SetCall, args: Value[]): Value[] {
  switch (call.name) {
    case "unnest": {
      if (args[0] === null) return [];
      const { items } = elements(String(args[0]), call.vector);
      return call.vector ? items.map((e) => e === null || !/^-?\d+$/.test(e) ? null : Number(e)) : items;
    }
    case "generate_subscripts": {
      if (args[0] === null || args[1] === null || Number(args[1]) !== 1) return [];
      const vector = !String(args[0]).trim().startsWith("{");
      const { items, lower } = elements(String(args[0]), vector);
      return items.map((_, i) => lower + i);
    }
    case "unnest_array": {
      const a = args[0];
      if (!(a instanceof DoubleArray) || a.shape.length === 0) return [];
      const n = a.shape[0];
      if (a.shape.length === 1) return Array.from(a.data.subarray(0, n), (x) => Number.isNaN(x) ? null : x);
      const inner = a.shape.slice(1);
      const stride = inner.reduce((x, y) => x * y, 1);
      return Array.from(
        { length: n },
        (_, i) => new DoubleArray(inner, a.data.slice(i * stride, (i + 1) * stride)),
      );
    }
    case "unnest_json":
      return jsonElements(args[0]).map((e) => {
        const field = e !== null && typeof e === "object" && !Array.isArray(e) && !(e instanceof JsonNumber)
          ? (e as Record<string, unknown>)[call.path!]
          : call.vector
          ? e
          : undefined;
        if (typeof field === "string" && (call.type.tag === "VARCHAR" || call.type.tag === "TIMESTAMP")) {
          checkJsonValueSize(field, call.path!);
        }
        const doc = field instanceof JsonNumber ? field.text : JSON.stringify(field ?? null);
        return jsonExtractAs(doc, [], call.type);
      });
    case "ordinality":
      return [];
    case "generate_series": {
      if (args.some((a) => a === null)) return [];
      const series = seriesOf(args.map((value, i) => ({ value, type: call.args[i].type })), -1);
      const out: Value[] = [];
      for (const b of runSeries(series)) out.push(...Array.from(b.columns[0].data as ArrayLike<Value>));
      return out;
    }
  }
}

export async function* runSetFunction(
  n: Extract<PlanNode, { kind: "setFunction" }>,
  ctx: ExecContext,
): AsyncGenerator<Batch> {
  const lists = n.calls.map((c) => callValues(c, c.args.map((a) => compileExpr(a, ctx)(ONE_ROW, 0))));
  const count = Math.max(0, ...lists.map((l) => l.length));
  // WITH ORDINALITY: the position of each row, from 1.
  n.calls.forEach((c, i) => {
    if (c.name === "ordinality") lists[i] = Array.from({ length: count }, (_, r) => BigInt(r + 1));
  });
  for (let at = 0; at < count; at += BATCH_ROWS_MAX) {
    await pace(ctx);
    const rows: Value[][] = [];
    for (let r = at; r < Math.min(count, at + BATCH_ROWS_MAX); r++) rows.push(lists.map((l) => l[r] ?? null));
    yield* rowsToBatches(n.columns.map((c) => c.type), rows);
  }
}
