/**
 * Random text generators of spec/sql.md §16.2: rnd_str (STRING), rnd_varchar (VARCHAR) and
 * rnd_symbol (SYMBOL, returned as its string in scalar form). Each takes one of three forms:
 *
 * - `(s1, s2, …)`: pick one of the constant strings;
 * - `(minLen, maxLen, nullRate)`: a fresh random string per row;
 * - `(count, minLen, maxLen, nullRate)`: pick from a pool of `count` random strings, drawn
 *   on the first evaluation (rnd_symbol has only this and the list form).
 */
import { SqlError } from "../base/errors.ts";
import { type ColumnType, T } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import { isText, noMatch, scalar } from "./_util.ts";
import { constInts, drawNaN, drawNull } from "./_random_args.ts";
import type { BoundArg, RandomSource, ScalarBinding, ScalarFunction } from "./registry_types.ts";
import { randomUtf8, randomVarchar } from "./random_utf8.ts";

/**
 * A random string: STRING and SYMBOL text is QuestDB's `Rnd.nextChars`, 'B' to 'Z'
 * (`nextPositiveInt() % 25 + 'B'`), its length `lo + nextPositiveInt() % range` drawn first
 * unless `fixedLen` (RndStringMemory's pool of equal lengths draws none); VARCHAR text is
 * RndVarcharFunction's (random_utf8.ts).
 */
function randomText(
  r: RandomSource,
  minLen: number,
  maxLen: number,
  unicode: boolean,
  fixedLen = false,
): string {
  if (unicode) return randomVarchar(r, minLen, maxLen);
  const len = fixedLen && minLen === maxLen ? minLen : minLen + r.nextInt(maxLen - minLen + 1);
  let s = "";
  for (let i = 0; i < len; i++) s += String.fromCharCode(66 + r.nextInt(25));
  return s;
}

/**
 * rnd_varchar() and rnd_varchar(lo, hi, nullRate) as RndVarcharFunctionFactory: the NULL draw
 * `nextInt() % (nullRate + 1) == 1` first, even at rate 0; `lo == hi` gives `lo` UTF-8
 * characters with no length or ASCII draw (RndFixedVarcharFunction); otherwise `0 < lo < hi`.
 */
function bindRandomVarchar(args: BoundArg[], ints: bigint[]): ScalarBinding | string {
  const [lo, hi, rate] = ints.length ? ints.map(Number) : [3, 10, 0];
  if (rate < 0) throw new SqlError("null rate must be positive", args[2].pos);
  const fixed = lo === hi;
  if (!fixed && !(lo < hi && lo > 0)) return "invalid range";
  return {
    returns: T.VARCHAR,
    deterministic: false,
    eval: (_a, { random: r }) =>
      drawNaN(r, rate) ? null : fixed ? randomUtf8(r, lo) : randomVarchar(r, lo, hi),
  };
}

function pickFromList(list: (string | null)[], returns: ColumnType): ScalarBinding {
  return { returns, deterministic: false, eval: (_a, ctx) => list[ctx.random.nextInt(list.length)] };
}

function lengths(name: string, minLen: bigint, maxLen: bigint): string | undefined {
  if (minLen < 0n || minLen > maxLen) return `invalid range [min=${minLen}, max=${maxLen}] in ${name}()`;
  return undefined;
}

/** Binds one of the three forms for `name`; `perRow` allows the (minLen, maxLen, nullRate) form. */
function bindRandomText(name: string, returns: ColumnType, unicode: boolean, perRow: boolean) {
  return (args: BoundArg[]): ScalarBinding | string => {
    if (args.length > 0 && args.every((a) => isText(a.type) || a.type.tag === "NULL")) {
      if (!args.every((a) => a.constant)) return `constant expected in ${name}()`;
      return pickFromList(args.map((a) => (a.value ?? null) as string | null), returns);
    }
    const ints = constInts(name, args);
    if (typeof ints === "string") return ints;
    if (unicode && perRow && (ints.length === 3 || ints.length === 0)) return bindRandomVarchar(args, ints);
    if (perRow && (ints.length === 3 || ints.length === 0)) {
      // No arguments: 3 to 10 letters, never NULL, as QuestDB's rnd_str()
      // (RndStringListFunctionFactory with no list).
      const [minLen, maxLen, rate] = ints.length ? ints : [3n, 10n, 0n];
      const bad = lengths(name, minLen, maxLen);
      if (bad) return bad;
      return {
        returns,
        deterministic: false,
        // rnd_str(lo, hi, nullRate) draws its NULL check as QuestDB's numeric generators
        // (RndStrFunction: `nextInt() % (nullRate + 1) == 1`), even at rate 0.
        eval: (_a, { random: r }) =>
          drawNaN(r, Number(rate))
            ? null
            : randomText(r, Number(minLen), Number(maxLen), false, ints.length === 3),
      };
    }
    if (ints.length === 4) {
      const [count, minLen, maxLen, rate] = ints;
      // RndStrRndListFunctionFactory / RndSymbolFunctionFactory: the count at its argument, then
      // `lo > hi || lo < 1` at the call, then the null rate at its argument.
      if (count < 1n) {
        throw new SqlError(`invalid ${returns.tag === "SYMBOL" ? "symbol" : "string"} count`, args[0].pos);
      }
      if (minLen > maxLen || minLen < 1n) return "invalid range";
      if (rate < 0n) throw new SqlError("null rate must be positive", args[3].pos);
      let pool: string[] | undefined;
      const drawPool = (r: RandomSource) =>
        Array.from(
          { length: Number(count) },
          () => randomText(r, Number(minLen), Number(maxLen), unicode, true),
        );
      return {
        returns,
        deterministic: false,
        init: ({ random: r }) => void (pool = drawPool(r)),
        eval: (_a, { random: r }): Value => {
          pool ??= drawPool(r);
          // rnd_symbol's NULL draw is `nextPositiveInt() % (nullRate + 1) == 1`
          // (RndSymbolFunctionFactory); rnd_str's `nullRate > 0 && nextPositiveInt() % nullRate == 0`.
          const isNull = returns.tag === "SYMBOL"
            ? r.nextInt(Number(rate) + 1) === 1
            : drawNull(r, Number(rate));
          return isNull ? null : pool[r.nextInt(pool.length)];
        },
      };
    }
    return noMatch(name, args);
  };
}

/** rnd_str, rnd_varchar, rnd_symbol. */
export const RANDOM_TEXT_FUNCTIONS: ScalarFunction[] = [
  scalar("rnd_str", bindRandomText("rnd_str", T.STRING, false, true)),
  scalar("rnd_varchar", bindRandomText("rnd_varchar", T.VARCHAR, true, true)),
  scalar("rnd_symbol", bindRandomText("rnd_symbol", T.SYMBOL, false, false)),
];
