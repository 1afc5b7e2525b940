/**
 * `json_extract(doc, path)` (QuestDB functions/json.md): the value at a JSONPath subset —
 * optional `$`, `.field`, `[n]` — as VARCHAR: a string's text unescaped, any other value as its
 * raw JSON token (`145.09`, `true`, `[0.25, 0.5]`); NULL for a JSON null, a missing field, a
 * NULL argument or a document that does not parse. Casting the result gives other types
 * (`json_extract(d, '$.price')::double`).
 */
import { SqlError } from "../base/errors.ts";
import { type ColumnType, T, type TypeTag } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import { castValue } from "./cast.ts";
import { parseTimestamp } from "./timestamp_parse.ts";
import { JSON_TYPED } from "./json_typed.ts";
import { isTextArg, noMatch, scalar } from "./_util.ts";
import type { BoundArg, ScalarBinding, ScalarFunction } from "./registry_types.ts";

type Step = string | number;

/** Parses `$.a.b[0]`; undefined when the path is not of the supported form. */
export function parseJsonPath(path: string): Step[] | undefined {
  const steps: Step[] = [];
  let i = path.startsWith("$") ? 1 : 0;
  while (i < path.length) {
    if (path[i] === ".") {
      const m = /^[^.[\]]+/.exec(path.slice(i + 1));
      if (!m) return undefined;
      steps.push(m[0]);
      i += 1 + m[0].length;
    } else if (path[i] === "[") {
      const m = /^\[(\d+)\]/.exec(path.slice(i));
      if (!m) return undefined;
      steps.push(Number(m[1]));
      i += m[0].length;
    } else if (i === 0) {
      // A path may start with a bare field name (the `$` is optional).
      const m = /^[^.[\]]+/.exec(path);
      if (!m) return undefined;
      steps.push(m[0]);
      i = m[0].length;
    } else return undefined;
  }
  return steps;
}

/** A small JSON scanner that finds the span of the value a path names, without building it. */
class Scanner {
  i = 0;
  constructor(readonly s: string) {}

  ws(): void {
    while (this.i < this.s.length && " \t\n\r".includes(this.s[this.i])) this.i++;
  }

  /** Skips one value; throws on malformed input. */
  skip(): void {
    this.ws();
    const c = this.s[this.i];
    if (c === "{" || c === "[") {
      const close = c === "{" ? "}" : "]";
      this.i++;
      this.ws();
      if (this.s[this.i] === close) {
        this.i++;
        return;
      }
      for (;;) {
        if (c === "{") {
          this.string();
          this.ws();
          if (this.s[this.i++] !== ":") throw new Error("json");
        }
        this.skip();
        this.ws();
        const d = this.s[this.i++];
        if (d === close) return;
        if (d !== ",") throw new Error("json");
      }
    }
    if (c === '"') return void this.string();
    const m = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(
      this.s.slice(this.i, this.i + 400),
    );
    if (!m) throw new Error("json");
    this.i += m[0].length;
  }

  /** Reads a string token and returns its value. */
  string(): string {
    this.ws();
    const start = this.i;
    if (this.s[this.i++] !== '"') throw new Error("json");
    while (this.i < this.s.length && this.s[this.i] !== '"') this.i += this.s[this.i] === "\\" ? 2 : 1;
    if (this.i >= this.s.length) throw new Error("json");
    this.i++;
    return JSON.parse(this.s.slice(start, this.i));
  }

  /** Moves to the member `step` of the value at the cursor; false when it is absent. */
  enter(step: Step): boolean {
    this.ws();
    const c = this.s[this.i];
    if (typeof step === "string" ? c !== "{" : c !== "[") return false;
    this.i++;
    this.ws();
    if (this.s[this.i] === (c === "{" ? "}" : "]")) return false;
    for (let n = 0;; n++) {
      if (c === "{") {
        const key = this.string();
        this.ws();
        if (this.s[this.i++] !== ":") throw new Error("json");
        if (key === step) return true;
      } else if (n === step) return true;
      this.skip();
      this.ws();
      const d = this.s[this.i++];
      if (d !== ",") return false;
    }
  }
}

/** Whether the whole document is one JSON value (json.md: a malformed document gives NULL). */
function wellFormed(doc: string): boolean {
  const sc = new Scanner(doc);
  try {
    sc.skip();
    sc.ws();
    return sc.i === doc.length;
  } catch {
    return false;
  }
}

/** The JSON value a path names: its kind and text (a string unescaped, else the raw token). */
interface JsonToken {
  kind: "null" | "boolean" | "string" | "number" | "composite";
  text: string;
}

/** The token at `steps`; undefined when it is missing or the document does not parse. */
function jsonToken(doc: string, steps: Step[]): JsonToken | undefined {
  if (!wellFormed(doc)) return undefined;
  const sc = new Scanner(doc);
  try {
    for (const step of steps) if (!sc.enter(step)) return undefined;
    sc.ws();
    if (sc.s[sc.i] === '"') return { kind: "string", text: sc.string() };
    const start = sc.i;
    sc.skip();
    const text = doc.slice(start, sc.i);
    const c = text[0];
    const kind = text === "null"
      ? "null"
      : text === "true" || text === "false"
      ? "boolean"
      : c === "{" || c === "["
      ? "composite"
      : "number";
    return { kind, text };
  } catch {
    return undefined;
  }
}

export function jsonExtract(doc: string, steps: Step[]): string | null {
  const t = jsonToken(doc, steps);
  return t === undefined || t.kind === "null" ? null : t.text;
}

const INTEGER_RANGE: Partial<Record<TypeTag, [number, number]>> = {
  SHORT: [-32768, 32767],
  INT: [-2147483647, 2147483647],
};

/**
 * `json_extract(doc, path)::type` for the types of json.md's conversion table: numbers (also in
 * JSON strings) truncate to integers, out of range is NULL (0 for SHORT); a JSON boolean is
 * 0/1; only JSON `true` is BOOLEAN true; DATE and TIMESTAMP read ISO text, or a number as
 * milliseconds / microseconds (DATE also a number held in a JSON string); IPV4 reads dotted text,
 * or an integer number as the address's 32-bit pattern; anything that does not convert is NULL
 * (false, 0). Values as JsonExtractCastScenariosTest lists them.
 */
export function jsonExtractAs(doc: string, steps: Step[], to: ColumnType): Value {
  const t = jsonToken(doc, steps);
  const empty: Value = to.tag === "BOOLEAN" ? false : to.tag === "SHORT" ? 0 : null;
  if (t === undefined || t.kind === "null" || t.kind === "composite") return empty;
  if (to.tag === "BOOLEAN") return t.kind === "boolean" && t.text === "true";
  const num = t.kind === "boolean"
    ? (t.text === "true" ? 1 : 0)
    : t.text.trim() === ""
    ? NaN
    : Number(t.text);
  switch (to.tag) {
    case "SHORT":
    case "INT":
    case "LONG": {
      if (!Number.isFinite(num)) return empty;
      if (to.tag === "LONG") return jsonLong(t.text, num);
      const [lo, hi] = INTEGER_RANGE[to.tag]!;
      const i = Math.trunc(num);
      return i < lo || i > hi ? empty : i;
    }
    case "FLOAT":
    case "DOUBLE": {
      const x = to.tag === "FLOAT" ? Math.fround(num) : num;
      return Number.isFinite(x) ? x : null;
    }
    case "DATE":
    case "TIMESTAMP": {
      if (t.kind === "boolean") return null;
      if (t.kind === "number") return jsonLong(t.text, num);
      const parsed = parseTimestamp(t.text, to.tag === "DATE" ? "ms" : "us");
      if (parsed !== undefined) return parsed;
      // a JSON string holding a number is milliseconds for DATE, but not microseconds for TIMESTAMP
      return to.tag === "DATE" && Number.isFinite(num) ? jsonLong(t.text, num) : null;
    }
    case "IPV4":
      if (t.kind === "number") {
        // an integer in INT range is the address's bit pattern; 0 is the NULL address
        if (!/^-?\d+$/.test(t.text) || num < -2147483648 || num > 2147483647 || num === 0) return null;
        return num >>> 0;
      }
      return t.kind === "string" ? castValue(t.text, T.VARCHAR, to, { constant: false }) : null;
    default:
      return castValue(t.text, T.VARCHAR, to, { constant: false });
  }
}

/**
 * A JSON number (or number text) as LONG: an integer literal converts exactly, as a double cannot
 * hold every LONG (9223372036854775807); a fraction or exponent truncates; beyond the LONG range
 * (or its NULL, -2^63) is NULL.
 */
function jsonLong(text: string, num: number): bigint | null {
  const big = /^-?\d+$/.test(text) ? BigInt(text) : BigInt(Math.trunc(num));
  return big > 9223372036854775807n || big <= -9223372036854775808n ? null : big;
}

export { JSON_TYPED };

/** `json_extract(doc, path)::to` bound as one call (see jsonExtractAs). */
export function bindJsonExtractAs(args: BoundArg[], to: ColumnType): ScalarBinding | string {
  const plain = bindJsonExtract(args);
  if (typeof plain === "string") return plain;
  const p = args[1];
  const fixed = p.constant && typeof p.value === "string" ? parseJsonPath(p.value) : undefined;
  return {
    returns: to,
    eval: ([d, path]) => {
      const steps = d === null || path === null ? undefined : fixed ?? parseJsonPath(path as string);
      if (!steps) return to.tag === "BOOLEAN" ? false : to.tag === "SHORT" ? 0 : null;
      return jsonExtractAs(d as string, steps, to);
    },
  };
}

/**
 * QuestDB's column type ids of JSON_TYPED (ColumnType.java), for the hidden three-argument form
 * `json_extract(doc, path, type)` that its parser writes for `json_extract(doc, path)::type`
 * (JsonExtractTypedFunctionFactory); other ids are refused.
 */
const TYPE_IDS: Record<number, ColumnType> = {
  1: T.BOOLEAN,
  3: T.SHORT,
  5: T.INT,
  6: T.LONG,
  7: T.DATE,
  8: T.TIMESTAMP,
  9: T.FLOAT,
  10: T.DOUBLE,
  25: T.IPV4,
};

/** QuestDB reads the path once: a column is refused at the path (JsonExtract*FunctionFactory). */
function checkPath(p: BoundArg): void {
  if (p.perRow) throw new SqlError("constant or bind variable expected", p.pos);
}

function bindJsonExtract(args: BoundArg[]): ScalarBinding | string {
  if (
    args.length === 3 && isTextArg(args[0].type) && isTextArg(args[1].type) &&
    ["BYTE", "SHORT", "INT", "LONG"].includes(args[2].type.tag)
  ) {
    checkPath(args[1]);
    const to = args[2].constant ? TYPE_IDS[Number(args[2].value)] : undefined;
    // A string is reported at the call, as QuestDB reports this one.
    if (!to) return "please use json_extract(json,path)::type semantic";
    return bindJsonExtractAs(args.slice(0, 2), to);
  }
  if (args.length !== 2 || !isTextArg(args[0].type) || !isTextArg(args[1].type)) {
    return noMatch("json_extract", args);
  }
  const p = args[1];
  checkPath(p);
  const fixed = p.constant && typeof p.value === "string" ? parseJsonPath(p.value) : undefined;
  if (p.constant && typeof p.value === "string" && !fixed) throw new SqlError("invalid JSON path", p.pos);
  return {
    returns: T.VARCHAR,
    eval: ([d, path]) => {
      if (d === null || path === null) return null;
      const steps = fixed ?? parseJsonPath(path as string);
      return steps ? jsonExtract(d as string, steps) : null;
    },
  };
}

export const JSON_FUNCTIONS: ScalarFunction[] = [scalar("json_extract", bindJsonExtract)];
