/**
 * IPv4 containment operators (spec/sql.md §15.4): `a << b` (a strictly inside subnet b),
 * `a <<= b` (inside or equal), `a >> b` and `a >>= b` (the mirrored forms). Either side may be
 * an IPV4 value (a /32 network) or text holding an address or a CIDR subnet such as
 * `'2.65.32.1/2'` (host bits are ignored). A NULL address is 0.0.0.0, as in QuestDB; text that
 * does not parse never matches.
 */
import { SqlError } from "../base/errors.ts";
import { T } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import { parseSubnet, type Subnet, subnetWithin } from "./_ipv4.ts";
import { isNullType, isText, noMatchOp, scalar } from "./_util.ts";
import type { BoundArg, ScalarBinding, ScalarFunction } from "./registry_types.ts";

type ToSubnet = (v: Value) => Subnet | null;

function operand(a: BoundArg): ToSubnet | string | undefined {
  // QuestDB compares the raw addresses: NULL is 0.0.0.0, inside 0.0.0.0/1 (IPv4Test
  // #testIPv4ContainsEqSubnet, #testCaseIPv46: `ip <<= null` holds for the NULL addresses);
  // NULL text (a NULL bind variable, #testIndexedBindVariableInContainsEqFilterNull) never matches.
  if (a.type.tag === "IPV4" || isNullType(a.type)) {
    return (v) => ({ net: v === null ? 0 : v as number, bits: 32 });
  }
  if (!isText(a.type)) return undefined;
  if (a.constant) {
    const text = (a.value ?? null) as string | null;
    if (text === null) return () => null;
    const s = parseSubnet(text);
    // QuestDB (IPv4Test#testContainsIPv4FunctionFactoryError) points at the bad constant.
    if (!s) throw new SqlError(`invalid argument: ${text}`, a.pos);
    return () => s;
  }
  return (v) => (v === null ? null : parseSubnet(v as string) ?? null);
}

function containment(op: "<<" | "<<=" | ">>" | ">>="): ScalarFunction {
  const strict = op === "<<" || op === ">>";
  const mirrored = op === ">>" || op === ">>=";
  return scalar(op, (args): ScalarBinding | string => {
    if (args.length !== 2) return noMatchOp(op, args);
    const l = operand(args[0]), r = operand(args[1]);
    if (l === undefined || r === undefined) return noMatchOp(op, args);
    if (typeof l === "string") return l;
    if (typeof r === "string") return r;
    // A bare NULL subnet holds exactly the NULL addresses, strict or not (IPv4Test#testCaseIPv45:
    // `ip << null` is true for the NULL rows).
    if (isNullType(args[mirrored ? 0 : 1].type)) {
      return { returns: T.BOOLEAN, eval: (vs) => vs[mirrored ? 1 : 0] === null };
    }
    return {
      returns: T.BOOLEAN,
      eval: ([a, b]) => {
        const x = l(a), y = r(b);
        if (x === null || y === null) return false;
        return mirrored ? subnetWithin(y, x, strict) : subnetWithin(x, y, strict);
      },
    };
  });
}

/** `<<`, `<<=`, `>>`, `>>=`. */
export const IPV4_OPERATORS: ScalarFunction[] = [
  containment("<<"),
  containment("<<="),
  containment(">>"),
  containment(">>="),
];
