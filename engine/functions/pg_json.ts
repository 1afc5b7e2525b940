/**
 * json_build_object(key, value, ...): PostgreSQL's JSON object builder, which SQLAlchemy's
 * column reflection calls for identity columns (over pg_sequence). The result is the JSON
 * text, as PostgreSQL prints a json value: numbers and booleans bare, NULL as null, anything
 * else a JSON string of its text.
 */
import { SqlError } from "../base/errors.ts";
import { type ColumnType, T } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import { formatValue } from "./format_value.ts";
import { registerScalar } from "./registry.ts";
import type { BoundArg, ScalarBinding } from "./registry_types.ts";

const BARE = new Set(["BYTE", "SHORT", "INT", "LONG", "FLOAT", "DOUBLE", "BOOLEAN"]);

function jsonOf(v: Value, t: ColumnType): string {
  if (v === null) return "null";
  if (t.tag === "BOOLEAN") return v ? "true" : "false";
  if (BARE.has(t.tag) && (typeof v !== "number" || Number.isFinite(v))) return String(v);
  return JSON.stringify(typeof v === "string" ? v : formatValue(v, t));
}

function bind(args: BoundArg[]): ScalarBinding | string {
  if (args.length % 2 !== 0) return "json_build_object expects an even number of arguments (key, value, ...)";
  const types = args.map((a) => a.type);
  return {
    returns: T.STRING,
    eval: (vs) => {
      const parts: string[] = [];
      for (let i = 0; i < vs.length; i += 2) {
        if (vs[i] === null) throw new SqlError("json_build_object: a key must not be null", -1);
        parts.push(`${JSON.stringify(String(vs[i]))} : ${jsonOf(vs[i + 1], types[i + 1])}`);
      }
      return `{${parts.join(", ")}}`;
    },
  };
}

registerScalar({ name: "json_build_object", bind });
registerScalar({ name: "pg_catalog.json_build_object", bind });
