/**
 * Statement timeouts for REST (spec/protocols.md §2: `Statement-Timeout: <ms>` overrides
 * `query.timeout` for /exec; /exp takes its `timeout` parameter in seconds).
 */
import type { Config } from "../config.ts";

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * A duration setting in milliseconds: `60s`, `500ms`, `2m`, or a bare number of seconds (as
 * the deprecated `query.timeout.sec`). Undefined when unreadable.
 */
export function durationMs(text: string | undefined): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/i.exec(text ?? "");
  if (!m) return undefined;
  return Math.round(Number(m[1]) * UNIT_MS[(m[2] ?? "s").toLowerCase()]);
}

/** The timeout of an /exec request; 0 means none. */
export function execTimeoutMs(request: Request, config: Config): number {
  const header = request.headers.get("Statement-Timeout");
  if (header !== null && /^\s*\d+\s*$/.test(header)) return Number(header);
  // The setting's text is read per request (it may be reloaded); parsed only when it changed.
  const text = config.get("query.timeout");
  if (text !== lastText) {
    lastText = text;
    lastMs = durationMs(text) ?? 60_000;
  }
  return lastMs;
}

let lastText: string | undefined;
let lastMs = 60_000;

/** The timeout of an /exp request from its `timeout` parameter (seconds); 0 means none. */
export function expTimeoutMs(timeoutParam: string | undefined): number {
  const s = Number(timeoutParam);
  return Number.isFinite(s) && s > 0 ? s * 1000 : 0;
}
