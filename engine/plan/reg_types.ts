/**
 * PostgreSQL's object identifier types regclass, regtype, regproc and regrole (issues #23,
 * #18), as the
 * engine reads them: a value of one is an INT oid (types.ts `regType`), so comparisons and
 * joins (`attrelid = 't'::regclass`, npgsql's `pg_proc.oid = typreceive`) work as on any INT,
 * while a result column or a cast to text prints the object's name, as PostgreSQL does
 * (`SELECT 'int4'::regtype` shows `integer`, `c.oid::regclass::text` the table's name).
 * - a name cast to one (`'public.t'::regclass`, `CAST(FORMAT('%I.%I', s, t) AS REGCLASS)`) is
 *   the object's oid; a name no object has is an error, as in PostgreSQL;
 * - an integer cast to one keeps its value (`16385::regclass`), and a reg value cast to
 *   `oid`/INT is a plain INT again;
 * - `showReg` wraps a reg value where it is shown (planQuery's result columns, text casts).
 */
import { SqlError } from "../base/errors.ts";
import { type ColumnType, type RegKind, regType, T, typeName as engineTypeName } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import { relationName, relationOid } from "../catalog/pg_catalog.ts";
import { procName, procOid } from "../catalog/pg_catalog_proc.ts";
import { typeName, typeOidByName } from "../catalog/pg_catalog_types.ts";
import { castValue } from "../functions/cast.ts";
import type { EvalContext, ScalarBinding } from "../functions/registry_types.ts";
import type * as A from "../sql/ast.ts";
import { type BoundExpr, isConst } from "./bound.ts";

const KINDS: Record<string, RegKind> = {
  regclass: "regclass",
  regtype: "regtype",
  regproc: "regproc",
  regprocedure: "regproc",
  regrole: "regrole",
};

/** The one role here (pg_roles, pg_get_userbyid): its oid, as PostgreSQL's bootstrap superuser. */
const ROLES: Record<string, number> = { admin: 10 };

/** The reg* type a cast's type names (`regclass`, `pg_catalog.regtype`), or undefined. */
export function regKindOf(spec: A.TypeSpec): RegKind | undefined {
  if (spec.arrayDims) return undefined;
  return KINDS[spec.text.replaceAll('"', "").replace(/^pg_catalog\./i, "").toLowerCase()];
}

/** What PostgreSQL says when the name names nothing. */
const MISSING: Record<RegKind, string> = {
  regclass: "relation",
  regtype: "type",
  regproc: "function",
  regrole: "role",
};

/** The oid `text` names as a `kind`; an error at `pos` when nothing has that name. */
function oidByName(kind: RegKind, text: string, ec: EvalContext, pos: number): number {
  // An oid written as text (`'16385'::regclass`) is that oid, as in PostgreSQL.
  if (/^\s*\d+\s*$/.test(text)) return Number(text);
  const oid = kind === "regrole"
    ? ROLES[text.trim().replace(/^"(.*)"$/, "$1")]
    : kind === "regclass"
    ? relationOid(text, ec.catalog)
    : kind === "regtype"
    ? typeOidByName(text) ?? undefined
    : procOid(text);
  if (oid === undefined) throw new SqlError(`${MISSING[kind]} "${text}" does not exist`, pos);
  return oid;
}

/** How a reg value prints. */
function nameByOid(kind: RegKind, oid: number, ec: EvalContext): string {
  if (kind === "regclass") return relationName(oid, ec.catalog);
  if (kind === "regtype") return typeName(oid);
  // An oid no role has prints as the number, as PostgreSQL's regroleout does.
  if (kind === "regrole") return Object.keys(ROLES).find((r) => ROLES[r] === oid) ?? String(oid);
  return procName(oid);
}

const TEXT_TAGS = new Set(["STRING", "VARCHAR", "SYMBOL", "CHAR"]);
const INTEGER_TAGS = new Set(["BYTE", "SHORT", "INT", "LONG"]);

/** `arg::regclass` (and regtype, regproc). */
export function bindRegCast(arg: BoundExpr, kind: RegKind, pos: number, ec: EvalContext): BoundExpr {
  const type = regType(kind);
  if (arg.type.tag === "NULL") return { kind: "const", type, value: null };
  if (TEXT_TAGS.has(arg.type.tag)) {
    if (isConst(arg)) {
      return {
        kind: "const",
        type,
        value: arg.value === null ? null : oidByName(kind, String(arg.value), ec, pos),
      };
    }
    const binding: ScalarBinding = {
      returns: type,
      eval: ([v], ctx) => (v === null ? null : oidByName(kind, String(v), ctx, pos)),
    };
    return { kind: "call", type, name: kind, binding, args: [arg] };
  }
  if (INTEGER_TAGS.has(arg.type.tag)) {
    if (isConst(arg)) {
      return { kind: "const", type, value: castValue(arg.value, arg.type, T.INT, { constant: true, pos }) };
    }
    return { kind: "cast", type, from: arg.type, arg, pos };
  }
  throw new SqlError(`cannot cast ${engineTypeName(arg.type)} to ${kind}`, pos);
}

/** `e` as PostgreSQL shows a reg value: the object's name (STRING); other values as they are. */
export function showReg(e: BoundExpr): BoundExpr {
  const kind = e.type.reg;
  if (!kind) return e;
  const binding: ScalarBinding = {
    returns: T.STRING,
    eval: ([v], ctx) => (v === null ? null : nameByOid(kind, Number(v), ctx)),
  };
  return { kind: "call", type: T.STRING, name: `${kind}out`, binding, args: [e] };
}

/** A reg value cast to another type: to text its name, to an integer its plain oid. */
export function castFromReg(arg: BoundExpr, to: ColumnType, pos: number): BoundExpr | undefined {
  if (!arg.type.reg || to.reg === arg.type.reg) return undefined;
  if (TEXT_TAGS.has(to.tag)) {
    const shown = showReg(arg);
    return to.tag === "STRING" ? shown : { kind: "cast", type: to, from: T.STRING, arg: shown, pos };
  }
  if (to.reg) return { ...arg, type: to } as BoundExpr;
  if (to.tag === "INT" && isConst(arg)) return { kind: "const", type: to, value: arg.value as Value };
  return { kind: "cast", type: to, from: arg.type, arg, pos };
}
