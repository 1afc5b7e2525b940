/**
 * to_str(ts, 'format') for formats with fields finer than a second ('yyyy-MM-dd HH:mm:ss.SSS',
 * 'HH:mm:ss.SSSUUU'), batch at a time (issue #16; time_text.ts takes the coarser ones, one text
 * per distinct unit). Per UTC day the row path's own binding formats the day's first and last
 * microsecond; the places where the two texts differ are the digits of the time-of-day fields
 * (HH mm ss SSS UUU U+ N+, all zero-padded), and the text between them is the day's. A row's
 * text is then those pieces with its own digits put in, checked against the row path once per
 * day. Formats with other fields finer than a day (h, a, k, unpadded S...) keep the row path.
 */
import type { EvalContext } from "../../functions/registry_types.ts";
import { compilePattern } from "../../functions/datetime_format.ts";
import type { BoundExpr } from "../../plan/bound.ts";

const HOUR = 3_600_000_000, MINUTE = 60_000_000, SECOND = 1_000_000, DAY = 24 * HOUR;
const NO_CTX = {} as EvalContext;

/** Fields constant over a UTC day (time_text.ts FIELD_STEP's DAY fields) and NNN (µs: "000"). */
const DAY_FIELDS = new Set(
  "G y yy yyy yyyy YYYY M MM MMM MMMM d dd E EE u D w ww F z zz zzz Z x xx xxx NNN".split(" "),
);

const D2 = Array.from({ length: 100 }, (_, k) => String(k).padStart(2, "0"));
const D3 = Array.from({ length: 1000 }, (_, k) => String(k).padStart(3, "0"));

/** The time-of-day fields: their digit count and text from the µs of the day. */
const DIGITS: Record<string, [number, (us: number) => string]> = {
  HH: [2, (us) => D2[Math.floor(us / HOUR)]],
  mm: [2, (us) => D2[Math.floor(us / MINUTE) % 60]],
  ss: [2, (us) => D2[Math.floor(us / SECOND) % 60]],
  SSS: [3, (us) => D3[Math.floor(us / 1000) % 1000]],
  UUU: [3, (us) => D3[us % 1000]],
  "U+": [6, (us) => D3[Math.floor(us / 1000) % 1000] + D3[us % 1000]],
  "N+": [6, (us) => D3[Math.floor(us / 1000) % 1000] + D3[us % 1000]],
};

/** The time-of-day fields of `fmt` in order, or undefined when it has other fine fields. */
function fineFields(fmt: string): string[] | undefined {
  const fields: string[] = [];
  for (const op of compilePattern(fmt).ops) {
    if (op.kind === "literal") continue;
    if (op.kind === "field" && DAY_FIELDS.has(op.op)) continue;
    if (op.kind !== "field" && op.kind !== "optionalFraction") return undefined;
    if (!DIGITS[op.op]) return undefined;
    fields.push(op.op);
  }
  return fields;
}

/**
 * to_str(TIMESTAMP, constant format with time-of-day fields) as a function of a non-NULL µs
 * value (|t| < 2^53): its text, or undefined for a row the row path must format (the pieces of
 * its day did not line up). Undefined when the expression is not such a call.
 */
export function fineTimeTextFn(e: BoundExpr): ((t: number) => string | undefined) | undefined {
  if (e.kind !== "call" || e.name !== "to_str" || e.args.length !== 2 || e.type.tag !== "STRING") {
    return undefined;
  }
  const [ts, f] = e.args;
  if (ts.type.tag !== "TIMESTAMP" || f.kind !== "const" || typeof f.value !== "string") return undefined;
  const fmt = f.value;
  const fields = fineFields(fmt);
  if (!fields || fields.length === 0) return undefined;
  const fns = fields.map((op) => DIGITS[op][1]);
  const evalRow = (t: number) => {
    const r = e.binding.eval([BigInt(t), fmt], NO_CTX);
    return typeof r === "string" ? r : undefined;
  };
  // The current day's start and pieces (undefined: this day goes by row).
  let lo = 1, hi = 0;
  let pieces: string[] | undefined;
  const compose = (us: number, p: string[]) => {
    let s = p[0];
    for (let k = 0; k < fns.length; k++) s += fns[k](us) + p[k + 1];
    return s;
  };
  return (t) => {
    if (!(t >= lo && t < hi)) {
      let d = Math.floor(t / DAY);
      if (d * DAY > t) d--;
      else if ((d + 1) * DAY <= t) d++;
      lo = d * DAY;
      hi = lo + DAY;
      pieces = piecesOf(evalRow(lo), evalRow(hi - 1), fields);
      // Once per day: the composed text must be the row path's.
      if (pieces && compose(t - lo, pieces) !== evalRow(t)) pieces = undefined;
    }
    return pieces ? compose(t - lo, pieces) : undefined;
  };
}

/** The day's text around its time-of-day digits, from its first (`a`) and last (`z`) texts. */
function piecesOf(a: string | undefined, z: string | undefined, fields: string[]): string[] | undefined {
  if (a === undefined || z === undefined || a.length !== z.length) return undefined;
  const pieces: string[] = [];
  let at = 0, from = 0;
  for (const op of fields) {
    const n = DIGITS[op][0];
    while (at < a.length && a[at] === z[at]) at++;
    // The field's digits all differ (00 against 23 or 59, 000 against 999).
    for (let k = 0; k < n; k++) if (at + k >= a.length || a[at + k] === z[at + k]) return undefined;
    pieces.push(a.slice(from, at));
    at += n;
    from = at;
  }
  for (let k = at; k < a.length; k++) if (a[k] !== z[k]) return undefined;
  pieces.push(a.slice(from));
  return pieces;
}
