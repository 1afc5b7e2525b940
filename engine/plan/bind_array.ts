/**
 * Binding of `ARRAY[...]` constructors and `arr[...]` element access / slicing (spec/sql.md
 * §22.2, §22.3) into ordinary call nodes, folded when constant.
 */
import { SqlError } from "../base/errors.ts";
import { arrayType, type ColumnType, isNumeric, T, typeName } from "../base/types.ts";
import { DoubleArray } from "../base/double_array.ts";
import type { Value } from "../base/values.ts";
import type * as A from "../sql/ast.ts";
import { accessArray, constructArray, type Selector } from "../functions/array_ops.ts";
import type { ScalarBinding } from "../functions/registry_types.ts";
import { textArrayElement } from "../functions/pg_text_arrays.ts";
import { arrayElement } from "../functions/pg_functions.ts";
import { catalogTypeOid } from "../catalog/pg_catalog_define.ts";
import { toBigInt, toDouble } from "../functions/_util.ts";
import { parseArrayText } from "../functions/array_text.ts";
import { type BoundExpr, isConst } from "./bound.ts";
import type { BindContext } from "./bind_expr.ts";

type Bind = (e: A.Expr, ctx: BindContext) => BoundExpr;
type Cast = (arg: BoundExpr, to: ColumnType, pos: number) => BoundExpr;

/** A call node of `binding`, or its value when every argument is constant. */
function callNode(
  name: string,
  binding: ScalarBinding,
  args: BoundExpr[],
  ctx: BindContext | undefined,
  pos: number,
): BoundExpr {
  if (ctx && args.every(isConst)) {
    try {
      const v = binding.eval(args.map((a) => (a as { value: Value }).value), ctx.evalContext);
      return { kind: "const", type: binding.returns, value: v };
    } catch (err) {
      if (err instanceof SqlError && err.position < 0) throw new SqlError(err.message, pos, err.kind);
      throw err;
    }
  }
  return { kind: "call", type: binding.returns, name, binding, args };
}

/** `ARRAY[e1, e2, …]`; nested bare `[...]` elements are arrays themselves. */
export function bindArrayLiteral(e: A.ArrayLiteral, ctx: BindContext, bind: Bind, cast: Cast): BoundExpr {
  // No element at any depth: the empty array of the literal's nesting (QuestDB's ArrayTest
  // #testInsertEmpty2d: `ARRAY[[],[]]` into a DOUBLE[][] column).
  if (emptyArrayLiteral(e)) {
    return { kind: "const", type: arrayType(literalDepth(e)), value: DoubleArray.empty(literalDepth(e)) };
  }
  checkLiteralShape(e);
  // Sub-arrays bind last to first, as QuestDB builds them: an element error names the last
  // sub-array's (ArrayCreateFunctionFactoryTest#testNestedDecimalElements fails at `3.5m`).
  const nested = new Map<A.Expr, BoundExpr>();
  for (let i = e.elements.length - 1; i >= 0; i--) {
    const x = e.elements[i];
    if (x.kind === "array") nested.set(x, bindArrayLiteral(x, ctx, bind, cast));
  }
  const args = e.elements.map((x) => {
    const b = nested.get(x) ?? bind(x, ctx);
    // DECIMAL and types with no DOUBLE value are refused at the element (QuestDB's
    // ArrayCreateFunctionFactoryTest: `ARRAY[1.5, 2.5m]` fails at `2.5m`; BOOLEAN enters as 1/0).
    if (UNSUPPORTED_ELEMENTS.has(b.type.tag)) {
      throw new SqlError(`unsupported array element type [type=${typeName(b.type)}]`, x.pos);
    }
    // Integers enter as doubles: arrays hold DOUBLE only (§22.2).
    return b.type.tag === "ARRAY" || b.type.tag === "NULL" ? b : cast(b, T.DOUBLE, x.pos);
  });
  return callNode("array", constructArray(args.map((a) => a.type), e.pos), args, ctx, e.pos);
}

const UNSUPPORTED_ELEMENTS = new Set(["DECIMAL", "UUID", "LONG256", "LONG128", "BINARY", "INTERVAL"]);

/** Index types: integers, and text or a CHAR holding one (QuestDB 9: `arr1['2']`). */
const ARRAY_INDEX_TYPES = new Set(["BYTE", "SHORT", "INT", "LONG", "NULL", "CHAR", "STRING", "VARCHAR"]);

/**
 * An index argument as an INT: a LONG beyond INT fails as QuestDB's ArrayTest#testAccessInvalid
 * (`int overflow on array index [dim=2, index=999999999999]`), text is read as a number.
 */
function indexArg(b: BoundExpr, dim: number, pos: number): BoundExpr {
  if (b.type.tag !== "LONG" && b.type.tag !== "CHAR" && b.type.tag !== "STRING" && b.type.tag !== "VARCHAR") {
    return b;
  }
  const binding: ScalarBinding = {
    returns: T.INT,
    eval: ([v]) => {
      if (v === null) return null;
      const x = typeof v === "bigint" ? v : Number(String(v).trim());
      if (typeof x === "number" && !Number.isFinite(x)) return null;
      const n = typeof x === "bigint" ? x : BigInt(Math.trunc(x));
      if (n > 2147483647n || n < -2147483647n) {
        throw new SqlError(`int overflow on array index [dim=${dim}, index=${n}]`, pos);
      }
      return Number(n);
    },
  };
  return { kind: "call", type: T.INT, name: "array_index", binding, args: [b] };
}

/** QuestDB's ColumnType id of a type, as its errors print it (the tag where it has none here). */
const QUESTDB_TYPE_IDS: Record<string, number> = {
  BOOLEAN: 1,
  BYTE: 2,
  SHORT: 3,
  CHAR: 4,
  INT: 5,
  LONG: 6,
  DATE: 7,
  TIMESTAMP: 8,
  FLOAT: 9,
  DOUBLE: 10,
  STRING: 11,
  SYMBOL: 12,
};

function questdbTypeId(t: ColumnType): number | string {
  return QUESTDB_TYPE_IDS[t.tag] ?? t.tag;
}

/** `arr[i, lo:hi, …]` (also `arr[i][j]`, which the parser reads as one list of selectors). */
export function bindArrayIndex(e: A.IndexExpr, ctx: BindContext, bind: Bind): BoundExpr {
  const arr = bind(e.expr, ctx);
  if (isTextArrayBase(arr) && e.indexes.length === 1 && !e.ranges?.[0]) {
    return textElement(arr, bind(e.indexes[0], ctx), ctx, e);
  }
  if (arr.type.tag !== "ARRAY") {
    throw new SqlError(`array expected, found ${arr.type.tag}`, e.expr.pos);
  }
  const dims = arr.type.dims ?? 1;
  if (e.indexes.length > dims) {
    // QuestDB 9's text, at the bracket's first selector (ArrayAccessTest: `a[1,2]` fails at 9).
    throw new SqlError(
      `too many array access arguments [nDims=${dims}, nArgs=${e.indexes.length}]`,
      e.indexes[0].pos,
    );
  }
  const args: BoundExpr[] = [arr];
  const selectors: Selector[] = [];
  e.indexes.forEach((x, k) => {
    const range = e.ranges?.[k];
    for (const part of range?.hi ? [x, range.hi] : [x]) {
      const b = bind(part, ctx);
      // QuestDB indexes with BYTE, SHORT or INT (a LONG index fails: ArrayTest#testAccessInvalid).
      if (!ARRAY_INDEX_TYPES.has(b.type.tag)) {
        throw new SqlError(`invalid type for array access [type=${questdbTypeId(b.type)}]`, part.pos);
      }
      args.push(indexArg(b, k + 1, part.pos));
    }
    selectors.push({
      range: range !== undefined,
      hasHi: range?.hi !== undefined,
      pos: x.pos,
      colon: range?.pos,
    });
  });
  return callNode("[]", accessArray(arr.type, selectors, e.pos), args, ctx, e.pos);
}

/**
 * A text value subscripted: PostgreSQL's text arrays, which the engine holds in their text
 * form `{a,b}` (functions/pg_text_arrays.ts: string_to_array, parse_ident, catalog vectors).
 * QuestDB has no subscript on text, so no query of its dialect changes meaning.
 */
function isTextArrayBase(arr: BoundExpr): boolean {
  return arr.type.tag === "STRING" || arr.type.tag === "VARCHAR";
}

const TEXT_ELEMENT: ScalarBinding = {
  returns: T.STRING,
  eval: ([a, n]) => (a === null || n === null ? null : textArrayElement(String(a), Number(toBigInt(n)))),
};

/**
 * `v[n]` of a catalog int2vector/oidvector column (pgjdbc's getIndexInfo reads
 * `I_INDOPTION[pos - 1]`): PostgreSQL numbers a vector's elements from 0 and they are integers.
 */
const VECTOR_ELEMENT: ScalarBinding = {
  returns: T.INT,
  eval: ([a, n]) => (a === null || n === null ? null : arrayElement(String(a), Number(toBigInt(n)))),
};

function textElement(arr: BoundExpr, index: BoundExpr, ctx: BindContext, e: A.IndexExpr): BoundExpr {
  if (!["BYTE", "SHORT", "INT", "LONG", "NULL"].includes(index.type.tag)) {
    throw new SqlError(`array index must be an integer, found ${index.type.tag}`, e.indexes[0].pos);
  }
  if (catalogTypeOid(arr.type) !== undefined) {
    return callNode("vector_element", VECTOR_ELEMENT, [arr, index], ctx, e.pos);
  }
  return callNode("text_array_element", TEXT_ELEMENT, [arr, index], ctx, e.pos);
}

/**
 * The nesting of an array literal's own brackets, as QuestDB checks it before any value
 * (ArrayTest#testSelectLiteralInvalid), at the first element that differs from the first one:
 * bracketed and bare elements mixed, sub-arrays of other depths, or of other lengths.
 */
function checkLiteralShape(e: A.ArrayLiteral): void {
  const [first, ...rest] = e.elements;
  if (!first) return;
  const nested = first.kind === "array";
  for (const x of rest) {
    if ((x.kind === "array") !== nested) throw new SqlError("mixed array and non-array elements", x.pos);
  }
  if (!nested) return;
  const shapeOf = (x: A.ArrayLiteral): number[] => {
    const inner = x.elements[0];
    return [x.elements.length, ...(inner?.kind === "array" ? shapeOf(inner) : [])];
  };
  const want = shapeOf(first as A.ArrayLiteral);
  for (const x of rest) {
    const got = shapeOf(x as A.ArrayLiteral);
    if (got.length !== want.length) {
      throw new SqlError("sub-arrays don't match in number of dimensions", x.pos);
    }
    if (got[0] !== want[0]) throw new SqlError("element counts in sub-arrays don't match", x.pos);
  }
}

/** How deep an array literal nests (`ARRAY[[]]` is 2). */
function literalDepth(e: A.ArrayLiteral): number {
  const inner = e.elements.find((x) => x.kind === "array");
  return 1 + (inner && inner.kind === "array" ? literalDepth(inner) : 0);
}

/** Whether an array literal holds no element at any depth (`ARRAY[]`, `ARRAY[[], []]`). */
export function emptyArrayLiteral(e: A.Expr): boolean {
  return e.kind === "array" && e.elements.every(emptyArrayLiteral);
}

/**
 * `arr::DOUBLE[]...` of another dimension count (QuestDB's ArrayTest
 * #testExplicitCastDimensionalityChange): the array gains leading dimensions of length 1
 * (`ARRAY[1.0, 2.0]::double[][]` is [[1.0,2.0]]); fewer dimensions fail, as QuestDB says,
 * towards flattening. Undefined unless both sides are arrays of different dimensions.
 */
export function castArrayDims(
  arg: BoundExpr,
  to: ColumnType,
  pos: number,
  ctx?: BindContext,
): BoundExpr | undefined {
  if (to.tag !== "ARRAY" || arg.type.tag !== "ARRAY") return undefined;
  const want = to.dims ?? 1, from = arg.type.dims ?? 1;
  if (want === from) return undefined;
  if (want < from) {
    throw new SqlError(
      `cannot cast array to lower dimension [from=${typeName(arg.type)} (${from}D), to=${
        typeName(to)
      } (${want}D)]. Use array flattening operation (e.g. 'arr[:]' or 'flatten_array(arr)') instead`,
      pos,
    );
  }
  const ones = new Array<number>(want - from).fill(1);
  const binding: ScalarBinding = {
    returns: to,
    eval: ([a]) => {
      if (a === null) return null;
      const x = a as DoubleArray;
      return new DoubleArray([...ones, ...x.shape], x.data);
    },
  };
  return callNode("array_dims", binding, [arg], ctx, pos);
}

/**
 * An explicit cast to DOUBLE[]... of a number or of text (QuestDB's ArrayTest
 * #testExplicitCastFromScalarToArray, #testExplicitCastFromStrToArray): a number is a
 * one-element array of the type's dimensions, NULL stays NULL; text that is no array of that
 * depth, holds a NULL element or nests empty arrays deeper than the type gives NULL rather than
 * an error. Undefined for other arguments.
 */
export function explicitArrayCast(
  arg: BoundExpr,
  to: ColumnType,
  pos: number,
  ctx?: BindContext,
): BoundExpr | undefined {
  if (to.tag !== "ARRAY") return undefined;
  const dims = to.dims ?? 1;
  if (isNumeric(arg.type)) {
    const ones = new Array<number>(dims).fill(1);
    const binding: ScalarBinding = {
      returns: to,
      eval: ([v]) => {
        const x = toDouble(v);
        return x === null || Number.isNaN(x) ? null : new DoubleArray(ones, Float64Array.of(x));
      },
    };
    return callNode("cast", binding, [arg], ctx, pos);
  }
  if (!TEXT_TYPES.has(arg.type.tag)) return undefined;
  const binding: ScalarBinding = {
    returns: to,
    eval: ([v]) => {
      if (v === null) return null;
      const text = String(v);
      if (textDepth(text) > dims) return null;
      const a = parseArrayText(text, dims);
      if (!a || a.data.some(Number.isNaN)) return null;
      return a;
    },
  };
  return callNode("cast", binding, [arg], ctx, pos);
}

const TEXT_TYPES = new Set(["STRING", "VARCHAR", "SYMBOL", "CHAR"]);

/** How deep the text's leading brackets nest (`{{},{}}` is 2), whitespace between them skipped. */
function textDepth(text: string): number {
  let depth = 0;
  for (const c of text) {
    if (c === "{" || c === "[") depth++;
    else if (!/\s/.test(c)) break;
  }
  return depth;
}
