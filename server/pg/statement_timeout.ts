/**
 * pgwire `statement_timeout` (issue 9; spec/protocols.md §12.1): set with
 * `SET statement_timeout = 500` / `TO '5s'`, or at startup with `options=-c statement_timeout=...`.
 * PostgreSQL's reading of the value: a bare number is milliseconds, units us/ms/s/min/h/d may
 * follow, and 0 turns the timeout off. Without a setting the server's `query.timeout` applies,
 * as it does for REST.
 */

const UNIT_MS: Record<string, number> = {
  us: 0.001,
  ms: 1,
  s: 1000,
  min: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/** Milliseconds of a statement_timeout value; undefined when PostgreSQL would refuse it. */
export function parseStatementTimeout(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(us|ms|s|min|h|d)?\s*$/i.exec(text);
  if (!m) return undefined;
  return Math.round(Number(m[1]) * UNIT_MS[(m[2] ?? "ms").toLowerCase()]);
}

/**
 * The timeout a statement runs with: the session's statement_timeout when it is readable,
 * else the server default. 0 means none.
 */
export function sessionTimeoutMs(settings: Map<string, string>, defaultMs: number): number {
  const set = settings.get("statement_timeout");
  const ms = set === undefined ? undefined : parseStatementTimeout(set);
  return ms ?? defaultMs;
}

/**
 * `-c name=value` and `--name=value` pairs of the startup `options` parameter (libpq's
 * PGOPTIONS), lower-case names. Backslash escapes a space inside a value, as in PostgreSQL.
 */
export function parseStartupOptions(options: string): Map<string, string> {
  const words: string[] = [];
  let word = "";
  for (let i = 0; i < options.length; i++) {
    const c = options[i];
    if (c === "\\" && i + 1 < options.length) word += options[++i];
    else if (/\s/.test(c)) {
      if (word) words.push(word);
      word = "";
    } else word += c;
  }
  if (word) words.push(word);
  const out = new Map<string, string>();
  for (let i = 0; i < words.length; i++) {
    let pair: string | undefined;
    if (words[i] === "-c") pair = words[++i];
    else if (words[i].startsWith("-c")) pair = words[i].slice(2);
    else if (words[i].startsWith("--")) pair = words[i].slice(2);
    const eq = pair?.indexOf("=") ?? -1;
    if (pair && eq > 0) out.set(pair.slice(0, eq).toLowerCase().replaceAll("-", "_"), pair.slice(eq + 1));
  }
  return out;
}
