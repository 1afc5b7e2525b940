/**
 * Random text generators of spec/sql.md §16.2: rnd_str (STRING), rnd_varchar (VARCHAR) and
 * rnd_symbol (SYMBOL, returned as its string in scalar form). Each takes one of three forms:
 *
 * - `(s1, s2, …)`: pick one of the constant strings;
 * - `(minLen, maxLen, nullRate)`: a fresh random string per row;
 * - `(count, minLen, maxLen, nullRate)`: pick from a pool of `count` random strings, drawn
 *   on the first evaluation (rnd_symbol has only this and the list form).
 */
import { type ColumnType, T } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import { isText, noMatch, scalar } from "./_util.ts";
import { constInts, drawNull } from "./_random_args.ts";
import type { BoundArg, RandomSource, ScalarBinding, ScalarFunction } from "./registry_types.ts";

/** Characters rnd_varchar mixes into its output besides A–Z, to exercise multi-byte UTF-8. */
const NON_ASCII = "ÄÖÜßéñçøåжлфдяΩλπ漢字日本語";

/** A random string of uppercase letters (and, for VARCHAR, some non-ASCII characters). */
function randomText(r: RandomSource, minLen: number, maxLen: number, unicode: boolean): string {
  const len = minLen + r.nextInt(maxLen - minLen + 1);
  let s = "";
  for (let i = 0; i < len; i++) {
    s += unicode && r.nextInt(4) === 0
      ? NON_ASCII[r.nextInt(NON_ASCII.length)]
      : String.fromCharCode(65 + r.nextInt(26));
  }
  return s;
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
    if (perRow && (ints.length === 3 || ints.length === 0)) {
      // No arguments: 3 to 10 letters, never NULL, as QuestDB's rnd_str() / rnd_varchar()
      // (RndStringListFunctionFactory with no list).
      const [minLen, maxLen, rate] = ints.length ? ints : [3n, 10n, 0n];
      const bad = lengths(name, minLen, maxLen);
      if (bad) return bad;
      return {
        returns,
        deterministic: false,
        eval: (_a, { random: r }) =>
          drawNull(r, Number(rate)) ? null : randomText(r, Number(minLen), Number(maxLen), unicode),
      };
    }
    if (ints.length === 4) {
      const [count, minLen, maxLen, rate] = ints;
      const bad = lengths(name, minLen, maxLen) ?? (count < 1n ? `invalid count in ${name}()` : undefined);
      if (bad) return bad;
      let pool: string[] | undefined;
      return {
        returns,
        deterministic: false,
        eval: (_a, { random: r }): Value => {
          pool ??= Array.from(
            { length: Number(count) },
            () => randomText(r, Number(minLen), Number(maxLen), unicode),
          );
          return drawNull(r, Number(rate)) ? null : pool[r.nextInt(pool.length)];
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
