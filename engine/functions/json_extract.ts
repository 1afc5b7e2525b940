/**
 * `json_extract(doc, path)` (QuestDB functions/json.md): the value at a JSONPath subset —
 * optional `$`, `.field`, `[n]` — as VARCHAR: a string's text unescaped, any other value as its
 * raw JSON token (`145.09`, `true`, `[0.25, 0.5]`); NULL for a JSON null, a missing field, a
 * NULL argument or a document that does not parse. Casting the result gives other types
 * (`json_extract(d, '$.price')::double`).
 */
import { SqlError } from "../base/errors.ts";
import { T } from "../base/types.ts";
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

export function jsonExtract(doc: string, steps: Step[]): string | null {
  const sc = new Scanner(doc);
  try {
    for (const step of steps) if (!sc.enter(step)) return null;
    sc.ws();
    if (sc.s[sc.i] === '"') return sc.string();
    const start = sc.i;
    sc.skip();
    const token = doc.slice(start, sc.i);
    return token === "null" ? null : token;
  } catch {
    return null;
  }
}

function bindJsonExtract(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 2 || !isTextArg(args[0].type) || !isTextArg(args[1].type)) {
    return noMatch("json_extract", args);
  }
  const p = args[1];
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
