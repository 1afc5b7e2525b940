/**
 * QuestDB's scalar finance functions (functions/finance.md): mid, spread, spread_bps, wmid and
 * l2price over DOUBLE-convertible arguments, as QuestDB's *FunctionFactoryTest files in
 * griffin/engine/functions/finance expect. A NULL argument, or a result that is not finite, is NULL.
 */
import { SqlError } from "../base/errors.ts";
import { T, typeName } from "../base/types.ts";
import type { DoubleArray, Value } from "../base/values.ts";
import { isNumArg, noMatch, scalar, toDouble } from "./_util.ts";
import type { BoundArg, ScalarBinding, ScalarFunction } from "./registry_types.ts";
import { doubleFn } from "./numeric.ts";

const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);

/**
 * `wmid(bid_size, bid_price, ask_price, ask_size)`: the mid price weighted by the book's
 * imbalance, computed as QuestDB does (ask · imbalance + bid · (1 − imbalance)), so the last
 * digits match its tests (wmid(300.0, 1.0, 3.0, 200.0) = 2.1999999999999997).
 */
function wmid([bidSize, bid, ask, askSize]: number[]): number {
  const imbalance = bidSize / (bidSize + askSize);
  return ask * imbalance + bid * (1 - imbalance);
}

/**
 * `l2price(target, size1, price1, …)`: the average price of filling `target` from the order
 * book levels in order; NULL when the levels run out, or a NULL level is reached, first.
 */
export function l2price(target: number, levels: (number | null)[]): number | null {
  let filled = 0, cost = 0;
  for (let i = 0; i + 1 < levels.length; i += 2) {
    const size = levels[i], price = levels[i + 1];
    if (size === null || price === null) return null;
    if (filled + size >= target) return finite((cost + (target - filled) * price) / target);
    filled += size;
    cost += size * price;
  }
  return null;
}

function bindL2price(args: BoundArg[]): ScalarBinding | string {
  if (args.length === 3 && args[1].type.tag === "ARRAY" && args[2].type.tag === "ARRAY") {
    // l2price(target, DOUBLE[] sizes, DOUBLE[] prices): the levels pairwise (finance.md).
    if (!isNumArg(args[0].type)) return noMatch("l2price", args);
    return {
      returns: T.DOUBLE,
      eval: ([t, s, p]) => {
        const target = toDouble(t);
        if (target === null || s === null || p === null) return null;
        const sizes = (s as DoubleArray).data, prices = (p as DoubleArray).data;
        if (sizes.length !== prices.length) return null;
        const levels: (number | null)[] = [];
        for (let i = 0; i < sizes.length; i++) {
          levels.push(sizes[i] === sizes[i] ? sizes[i] : null, prices[i] === prices[i] ? prices[i] : null);
        }
        return l2price(target, levels);
      },
    };
  }
  if (args.length < 3) return noMatch("l2price", args);
  const bad = args.find((a) => !isNumArg(a.type));
  if (bad) {
    throw new SqlError(
      `l2price requires arguments of type \`DOUBLE\`, or convertible to \`DOUBLE\`, not \`${
        typeName(bad.type)
      }\`.`,
      bad.pos,
    );
  }
  if (args.length % 2 === 0) {
    throw new SqlError("l2price requires an odd number of arguments.", args.at(-1)!.pos);
  }
  return {
    returns: T.DOUBLE,
    eval: (vals: Value[]) => {
      const target = toDouble(vals[0]);
      return target === null ? null : l2price(target, vals.slice(1).map(toDouble));
    },
  };
}

/** The finance functions. */
export const FINANCE_FUNCTIONS: ScalarFunction[] = [
  scalar("mid", doubleFn("mid", 2, (bid, ask) => (bid + ask) / 2)),
  scalar("spread", doubleFn("spread", 2, (bid, ask) => ask - bid)),
  scalar("spread_bps", doubleFn("spread_bps", 2, (bid, ask) => ((ask - bid) / ((bid + ask) / 2)) * 10000)),
  scalar("wmid", doubleFn("wmid", 4, (...xs) => wmid(xs))),
  scalar("l2price", bindL2price),
];
