/**
 * Session, server and assorted scalar functions: current_user / session_user,
 * current_database, current_schema, version, build (spec/sql.md §17.4); md5 / sha1 / sha256,
 * typeOf, pg_typeof, to_uuid, to_long256, netmask (§15.4); flush_query_cache and reload_config;
 * cancel_query.
 */
import { createHash } from "node:crypto";
import { SqlError } from "../base/errors.ts";
import { type ColumnType, T, typeName } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import { maskOf, parseSubnet } from "./_ipv4.ts";
import { isIntArg, isText, isTextArg, noMatch, scalar, toBigInt } from "./_util.ts";
import type { BoundArg, ScalarBinding, ScalarFunction } from "./registry_types.ts";

/** The text version() answers: pg clients parse only the leading `PostgreSQL 12.3` (§17.4). */
export const VERSION_TEXT = "PostgreSQL 12.3, compiled by Visual C++ build 1914, 64-bit, QuestDB";

/** The text build() answers (§17.4, P2). */
export const BUILD_TEXT = "Build Information: QuestDB 9.0.0 (Deno), JDK n/a, Commit Hash n/a";

/** A function of no arguments returning a fixed value. */
function fixed(name: string, returns: ColumnType, value: Value, deterministic = true): ScalarFunction {
  return scalar(
    name,
    (args) => (args.length === 0 ? { returns, deterministic, eval: () => value } : noMatch(name, args)),
  );
}

/** current_user() reads the principal from the evaluation context; it varies by session. */
function sessionUser(name: string): ScalarFunction {
  return scalar(
    name,
    (args) =>
      args.length === 0
        ? { returns: T.STRING, deterministic: false, eval: (_a, ctx) => ctx.user }
        : noMatch(name, args),
  );
}

/** md5 / sha1 / sha256 of the UTF-8 bytes of text or of a binary value, as lowercase hex. */
function digest(name: string, algorithm: string): ScalarFunction {
  return scalar(name, (args): ScalarBinding | string => {
    if (args.length !== 1 || !(isTextArg(args[0].type) || args[0].type.tag === "BINARY")) {
      return noMatch(name, args);
    }
    return {
      returns: T.VARCHAR,
      eval: (
        [v],
      ) => (v === null ? null : createHash(algorithm).update(v as string | Uint8Array).digest("hex")),
    };
  });
}

/**
 * `to_char(binary)`: QuestDB's hex dump (ToCharBinFunctionFactory): 16 bytes a line, each line the
 * 8-digit hex offset then the bytes as two-digit lowercase hex, lines joined by a newline.
 */
function hexDump(b: Uint8Array): string {
  const lines: string[] = [];
  for (let off = 0; off < b.length; off += 16) {
    let line = off.toString(16).padStart(8, "0");
    for (const byte of b.subarray(off, off + 16)) line += " " + byte.toString(16).padStart(2, "0");
    lines.push(line);
  }
  return lines.join("\n");
}

function bindToCharBin(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 1 || args[0].type.tag !== "BINARY") return noMatch("to_char", args);
  return { returns: T.STRING, eval: ([v]) => (v === null ? null : hexDump(v as Uint8Array)) };
}

/** PostgreSQL names of our types, for pg_typeof(). */
const PG_TYPE_NAMES: Partial<Record<string, string>> = {
  BOOLEAN: "boolean",
  BYTE: "smallint",
  SHORT: "smallint",
  CHAR: "character",
  INT: "integer",
  LONG: "bigint",
  FLOAT: "real",
  DOUBLE: "double precision",
  DATE: "timestamp without time zone",
  TIMESTAMP: "timestamp without time zone",
  TIMESTAMP_NS: "timestamp without time zone",
  SYMBOL: "character varying",
  STRING: "character varying",
  VARCHAR: "character varying",
  UUID: "uuid",
  BINARY: "bytea",
  NULL: "unknown",
};

function typeNameOf(name: string, render: (t: ColumnType) => string): ScalarFunction {
  return scalar(name, (args) => {
    if (args.length !== 1) return noMatch(name, args);
    const text = render(args[0].type);
    return { returns: T.STRING, eval: () => text };
  });
}

/** Formats 128 bits given as two signed 64-bit halves as a canonical UUID. */
export function uuidFromHalves(lo: bigint, hi: bigint): string {
  const h = BigInt.asUintN(64, hi).toString(16).padStart(16, "0") +
    BigInt.asUintN(64, lo).toString(16).padStart(16, "0");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** to_uuid(lo, hi): both halves NULL gives NULL, as QuestDB's UUID NULL is both halves LONG_MIN. */
function bindToUuid(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 2 || !isIntArg(args[0].type) || !isIntArg(args[1].type)) {
    return noMatch("to_uuid", args);
  }
  return {
    returns: T.UUID,
    eval: ([lo, hi]) => {
      const l = toBigInt(lo), h = toBigInt(hi);
      if (l === null && h === null) return null;
      return uuidFromHalves(l ?? -(1n << 63n), h ?? -(1n << 63n));
    },
  };
}

/**
 * to_long256(l0, l1, l2, l3): the four longs as one LONG256, l0 the lowest. All four NULL give
 * NULL; a NULL part alone stays LONG_MIN's bits, a value distinct from a zero part
 * (CountDistinctLong256GroupByFunctionFactoryTest#testMappingZeroToNulls).
 */
function bindToLong256(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 4 || !args.every((a) => isIntArg(a.type))) return noMatch("to_long256", args);
  return {
    returns: T.LONG256,
    argTypes: [T.LONG, T.LONG, T.LONG, T.LONG],
    eval: (parts) => {
      const longs = parts.map(toBigInt);
      if (longs.every((l) => l === null)) return null;
      return longs.reduce<bigint>(
        (v, l, i) => v | (BigInt.asUintN(64, l ?? -(1n << 63n)) << (64n * BigInt(i))),
        0n,
      );
    },
  };
}

/** netmask('a.b.c.d/n'): the subnet's mask as an IPv4 (`/8` → 255.0.0.0); NULL when malformed. */
function bindNetmask(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 1 || !(isText(args[0].type) || args[0].type.tag === "NULL")) {
    return noMatch("netmask", args);
  }
  return {
    returns: T.IPV4,
    eval: ([v]) => {
      if (v === null || !(v as string).includes("/")) return null;
      const s = parseSubnet(v as string);
      const m = s ? maskOf(s.bits) : 0;
      return m === 0 ? null : m;
    },
  };
}

/**
 * cancel_query(id): QuestDB's function form of CANCEL QUERY. True when the statement was told
 * to stop, false for an unknown or negative id; a negative literal is refused when bound.
 * Never folded into a constant: it acts when a row is evaluated.
 */
function bindCancelQuery(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 1 || !isIntArg(args[0].type)) return noMatch("cancel_query", args);
  const arg = args[0];
  const literal = arg.constant ? toBigInt(arg.value ?? null) : null;
  if (literal !== null && literal < 0n) {
    return "non-negative integer literal expected as query id";
  }
  return {
    returns: T.BOOLEAN,
    argTypes: [T.LONG],
    deterministic: false,
    eval: ([v], ctx) => {
      if (v === null) return false;
      if (!ctx.cancelQuery) throw new SqlError("cancel_query() is not available here", arg.pos);
      return ctx.cancelQuery(Number(v), arg.pos);
    },
  };
}

/** The functions of this file. */
export const MISC_FUNCTIONS: ScalarFunction[] = [
  sessionUser("current_user"),
  scalar("cancel_query", bindCancelQuery),
  sessionUser("session_user"),
  fixed("current_database", T.STRING, "qdb"),
  fixed("current_schema", T.STRING, "public"),
  fixed("version", T.STRING, VERSION_TEXT),
  fixed("pg_catalog.version", T.STRING, VERSION_TEXT),
  fixed("build", T.STRING, BUILD_TEXT),
  // Side-effect functions: never folded, so each call is a real request.
  scalar("flush_query_cache", (args) =>
    args.length === 0
      ? {
        returns: T.BOOLEAN,
        deterministic: false,
        eval: (_args, ctx) => {
          ctx.flushQueryCache?.();
          return true;
        },
      }
      : noMatch("flush_query_cache", args)),
  fixed("reload_config", T.BOOLEAN, true, false),
  // hydrate_table_metadata('t1', 't2' ... | '*'): QuestDB re-reads the named tables' metadata
  // (meta.md); ours is always current, so it checks the names and answers true as QuestDB does
  // when at least one names a table (HydrateTableMetadataFunctionFactoryTest).
  scalar("hydrate_table_metadata", (args) => {
    if (args.length === 0) return "no arguments provided";
    if (!args.every((a) => isTextArg(a.type))) return noMatch("hydrate_table_metadata", args);
    const names = args.map((a) => (a.constant && typeof a.value === "string" ? a.value : null));
    if (names.length > 1 && names.includes("*")) return "cannot use wildcard alongside other table names";
    // Folded at bind time for constant names, so that no valid name is an error at the call
    // (QuestDB checks while compiling); a re-read changes nothing to fold away here.
    return {
      returns: T.BOOLEAN,
      eval: (vals, ctx) => {
        const given = vals.filter((v): v is string => typeof v === "string");
        if (given.length === 1 && given[0] === "*") return true;
        if (ctx.tableExists && !given.some((n) => ctx.tableExists!(n))) {
          throw new SqlError("no valid table names provided");
        }
        return true;
      },
    };
  }),
  digest("md5", "md5"),
  digest("sha1", "sha1"),
  digest("sha256", "sha256"),
  scalar("to_char", bindToCharBin),
  // An untyped NULL is its own type here, though a result column of it reports STRING
  // (TypeOfFunctionFactoryTest#testOfNull: typeOf(null) and typeOf of a `null value` column are NULL).
  typeNameOf("typeof", (t) => t.tag === "NULL" ? "NULL" : typeName(t)),
  typeNameOf("pg_typeof", (t) => PG_TYPE_NAMES[t.tag] ?? typeName(t).toLowerCase()),
  scalar("to_uuid", bindToUuid),
  scalar("to_long256", bindToLong256),
  scalar("netmask", bindNetmask),
];
