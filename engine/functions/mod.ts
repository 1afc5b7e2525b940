/**
 * @module
 * engine/functions: the registry of scalar and aggregate functions and operators
 * (ARCHITECTURE.md), with the value helpers the planner and executor share.
 *
 * Entry points:
 * - `lookupScalar`, `lookupAggregate`, `isAggregateName`, `functionNames`, `registerScalar`,
 *   `registerAggregate` (registry.ts) and the binding contract (registry_types.ts);
 * - `compareValues`, `valuesEqual`, `hashKey` for ORDER BY, GROUP BY, DISTINCT and joins;
 * - `castValue`, `commonType` and the text renderings (cast.ts, format_value.ts);
 * - `createRandom`, the per-query random source.
 *
 * This folder builds on engine/base only (STYLE.md §1): it must not import sql/, plan/,
 * exec/, catalog/ or storage/.
 */
export * from "./registry_types.ts";
export {
  functionNames,
  isAggregateName,
  lookupAggregate,
  lookupScalar,
  registerAggregate,
  registerScalar,
} from "./registry.ts";
export { compareValues, hashKey, keyPart, valuesEqual } from "./value_compare.ts";
export { caseResultType } from "./conditional.ts";
export { createRandom } from "./random_source.ts";
export { castValue, commonType } from "./cast.ts";
export { formatValue } from "./format_value.ts";
export { parseTimestamp } from "./timestamp_parse.ts";
