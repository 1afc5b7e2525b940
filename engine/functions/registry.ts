/**
 * The function registry (ARCHITECTURE.md "engine/functions is the registry of scalar,
 * aggregate and window functions"): one entry per lower-case name, overloads resolved inside
 * each entry's `bind`. Operators are entries named by their symbol ("+", "<=", "~", "neg").
 *
 * The built-in families register when this module loads; later families (window functions)
 * add themselves with `registerScalar` / `registerAggregate`.
 */
import { assert } from "../base/assert.ts";
import { AGGREGATE_FUNCTIONS } from "./aggregates.ts";
import { ARRAY_FUNCTIONS } from "./arrays.ts";
import { ARRAY_BUILD_FUNCTIONS } from "./array_build.ts";
import { CIDR_FUNCTIONS } from "./cidr.ts";
import { CONDITIONAL_FUNCTIONS } from "./conditional.ts";
import { DATETIME_FUNCTIONS } from "./datetime.ts";
import { ENCODING_FUNCTIONS } from "./encoding.ts";
import { FINANCE_FUNCTIONS } from "./finance.ts";
import { JSON_FUNCTIONS } from "./json_extract.ts";
import { GEOHASH_MAKE_FUNCTIONS } from "./geohash_make.ts";
import { SPATIAL_FUNCTIONS } from "./spatial.ts";
import { VISUALIZATION_AGGREGATES, VISUALIZATION_FUNCTIONS } from "./visualization.ts";
import { MISC_FUNCTIONS } from "./misc.ts";
import { NUMERIC_FUNCTIONS } from "./numeric.ts";
import { OPERATOR_FUNCTIONS } from "./operators.ts";
import { RANDOM_FUNCTIONS } from "./random.ts";
import type { AggregateFunction, ScalarFunction } from "./registry_types.ts";
import { TEXT_FUNCTIONS } from "./text.ts";
import { TEXT_FORMAT_FUNCTIONS } from "./text_format.ts";

const scalars = new Map<string, ScalarFunction>();
const aggregates = new Map<string, AggregateFunction>();

/** Adds (or replaces) a scalar function; the name is matched case-insensitively. */
export function registerScalar(fn: ScalarFunction): void {
  scalars.set(fn.name.toLowerCase(), fn);
}

/** Adds (or replaces) an aggregate function; the name is matched case-insensitively. */
export function registerAggregate(fn: AggregateFunction): void {
  aggregates.set(fn.name.toLowerCase(), fn);
}

/** The scalar function or operator named `name` (any case), if there is one. */
export function lookupScalar(name: string): ScalarFunction | undefined {
  return scalars.get(name.toLowerCase());
}

/**
 * The aggregate function named `name` (any case), if there is one; `pg_catalog.` before the
 * name is PostgreSQL's schema for its built-ins (psql's `pg_catalog.string_agg`).
 */
export function lookupAggregate(name: string): AggregateFunction | undefined {
  const lower = name.toLowerCase();
  return aggregates.get(lower) ?? aggregates.get(lower.replace(/^pg_catalog\./, ""));
}

/** True when `name` is an aggregate: the binder then routes the call to GROUP BY machinery. */
export function isAggregateName(name: string): boolean {
  return lookupAggregate(name) !== undefined;
}

/** Operators registered under word names: keywords of the grammar, not callable functions. */
const OPERATOR_WORDS = new Set(["neg", "not", "and", "or", "like", "ilike"]);

/** Names of all callable functions (not operators), sorted: for console autocomplete. */
export function functionNames(): string[] {
  const names = new Set<string>();
  for (const n of [...scalars.keys(), ...aggregates.keys()]) {
    if (/^[a-z_][a-z0-9_.]*$/.test(n) && !OPERATOR_WORDS.has(n)) names.add(n);
  }
  return [...names].sort();
}

function registerBuiltins(): void {
  const families = [
    OPERATOR_FUNCTIONS,
    NUMERIC_FUNCTIONS,
    TEXT_FUNCTIONS,
    TEXT_FORMAT_FUNCTIONS,
    CONDITIONAL_FUNCTIONS,
    RANDOM_FUNCTIONS,
    MISC_FUNCTIONS,
    DATETIME_FUNCTIONS,
    ENCODING_FUNCTIONS,
    ARRAY_FUNCTIONS,
    ARRAY_BUILD_FUNCTIONS,
    FINANCE_FUNCTIONS,
    JSON_FUNCTIONS,
    GEOHASH_MAKE_FUNCTIONS,
    SPATIAL_FUNCTIONS,
    VISUALIZATION_FUNCTIONS,
    CIDR_FUNCTIONS,
  ];
  for (const family of families) {
    for (const fn of family) {
      assert(!scalars.has(fn.name), `duplicate scalar function ${fn.name}`);
      registerScalar(fn);
    }
  }
  for (const fn of [...AGGREGATE_FUNCTIONS, ...VISUALIZATION_AGGREGATES]) {
    assert(!aggregates.has(fn.name), `duplicate aggregate function ${fn.name}`);
    registerAggregate(fn);
  }
}

registerBuiltins();
