/**
 * QuestDB's CIDR functions (CidrFunctionTest): an IPv4 network packed in a LONG as
 * `(network << 6) | prefix`, the network's host bits zeroed.
 * - `cidr(text)` encodes `a.b.c.d/n` (NULL when NULL or malformed);
 * - `cidr(long)` decodes back to VARCHAR `a.b.c.d/n`;
 * - `cidr_contains(long, ipv4)` tells whether the address is in the network (false for NULLs);
 * - `rnd_cidr()` draws a prefix in [8, 30] then an address, as QuestDB's RndCidrFunctionFactory.
 */
import { T } from "../base/types.ts";
import { maskOf, parseSubnet } from "./_ipv4.ts";
import { nextInt32, nextPositiveInt } from "./_random_args.ts";
import { isIntArg, isText, noMatch, scalar, toBigInt } from "./_util.ts";
import type { BoundArg, ScalarBinding, ScalarFunction } from "./registry_types.ts";

/** Packs a network and its prefix length; host bits are cleared. */
export function toCidr(address: number, prefix: number): bigint {
  return (BigInt((address & maskOf(prefix)) >>> 0) << 6n) | BigInt(prefix);
}

function encode(text: string): bigint | null {
  if (!text.includes("/")) return null;
  const s = parseSubnet(text);
  return s ? toCidr(s.net, s.bits) : null;
}

function decode(v: bigint): string | null {
  const prefix = Number(v & 63n);
  if (prefix > 32) return null;
  const a = Number(BigInt.asUintN(32, v >> 6n));
  return `${a >>> 24}.${(a >>> 16) & 255}.${(a >>> 8) & 255}.${a & 255}/${prefix}`;
}

function bindCidr(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 1) return noMatch("cidr", args);
  const t = args[0].type;
  if (isText(t) || t.tag === "NULL") {
    return { returns: T.LONG, eval: ([s]) => (s === null ? null : encode(s as string)) };
  }
  if (isIntArg(t)) {
    return {
      returns: T.VARCHAR,
      eval: ([v]) => {
        const n = toBigInt(v);
        return n === null ? null : decode(n);
      },
    };
  }
  return noMatch("cidr", args);
}

function bindCidrContains(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 2 || !isIntArg(args[0].type) || !["IPV4", "NULL"].includes(args[1].type.tag)) {
    return noMatch("cidr_contains", args);
  }
  return {
    returns: T.BOOLEAN,
    eval: ([c, ip]) => {
      const v = toBigInt(c);
      if (v === null || ip === null) return false;
      const mask = maskOf(Number(v & 63n));
      const net = Number(BigInt.asUintN(32, v >> 6n));
      return (((ip as number) & mask) >>> 0) === ((net & mask) >>> 0);
    },
  };
}

function bindRndCidr(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 0) return noMatch("rnd_cidr", args);
  return {
    returns: T.LONG,
    deterministic: false,
    eval: (_args, { random: r }) => {
      const prefix = 8 + nextPositiveInt(r) % 23;
      return toCidr(nextInt32(r) >>> 0, prefix);
    },
  };
}

export const CIDR_FUNCTIONS: ScalarFunction[] = [
  scalar("cidr", bindCidr),
  scalar("cidr_contains", bindCidrContains),
  scalar("rnd_cidr", bindRndCidr),
];
