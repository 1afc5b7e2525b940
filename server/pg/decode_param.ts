/**
 * Bind parameter values into the engine's scalar form (spec/protocols.md §12.8 "Bind parameter
 * decoding"): text values are parsed by the parameter's type when it is known, binary values
 * are decoded by their OID. A value that does not fit its type is an error the client sees
 * (22P02 / 08P01), never a crash.
 */
import {
  arrayType,
  type ColumnType,
  decimalType,
  DoubleArray,
  parseArrayText,
  parseDecimalText,
  SqlError,
  T,
  type Value,
} from "../../engine/mod.ts";
import { decodeBinaryArray, decodeBinaryNumeric } from "./pg_arrays_numeric.ts";
import { utf8 } from "./buffer_reader.ts";
import { OID } from "./pg_types.ts";
import { civilFromDays, parseTimestampText, PG_EPOCH_MICROS } from "./pg_time.ts";

function invalid(text: string, typeName: string, index: number): SqlError {
  return new SqlError(
    `inconvertible value: \`${text}\` [STRING -> ${typeName}, variableIndex=${index}]`,
    -1,
    "semantic",
  );
}

function hexToBytes(text: string, index: number): Uint8Array {
  if (!text.startsWith("\\x")) return new TextEncoder().encode(text);
  const hex = text.slice(2);
  if (hex.length % 2 !== 0 || /[^0-9a-f]/i.test(hex)) throw invalid(text, "BINARY", index);
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** A text-format value of parameter type `oid` (0 = unknown: the text is passed on). */
export function decodeTextParam(text: string, oid: number, index: number): Value {
  const s = text.trim();
  switch (oid) {
    case OID.BOOL: {
      const b = s.toLowerCase();
      if (["t", "true", "1", "y", "yes", "on"].includes(b)) return true;
      if (["f", "false", "0", "n", "no", "off"].includes(b)) return false;
      throw invalid(text, "BOOLEAN", index);
    }
    case OID.INT2:
    case OID.INT4:
    case OID.OID: {
      if (!/^[+-]?\d+$/.test(s)) throw invalid(text, "INT", index);
      return Number(s);
    }
    case OID.INT8: {
      if (!/^[+-]?\d+$/.test(s)) throw invalid(text, "LONG", index);
      return BigInt(s);
    }
    case OID.NUMERIC: {
      // Kept as text: typedParam() makes it a DECIMAL of the digits written (§12.8).
      if (/^nan$/i.test(s)) return null;
      if (parseDecimalText(s) === undefined || /[mM]$/.test(s)) throw invalid(text, "DECIMAL", index);
      return s;
    }
    case OID.FLOAT8_ARRAY:
    case OID.INT8_ARRAY: {
      const a = parseArrayText(s);
      if (!a) throw invalid(text, "DOUBLE[]", index);
      return a;
    }
    case OID.FLOAT4:
    case OID.FLOAT8: {
      const x = Number(s);
      if (s === "" || Number.isNaN(x) && !/^nan$/i.test(s)) throw invalid(text, "DOUBLE", index);
      return x;
    }
    case OID.TIMESTAMP:
    case OID.TIMESTAMPTZ:
      // Unparseable text goes through as a string: the engine's own parser may know it.
      return parseTimestampText(s) ?? text;
    case OID.UUID:
      return s.toLowerCase();
    case OID.BYTEA:
      return hexToBytes(text, index);
    default:
      return text;
  }
}

/**
 * The engine type of a decoded value when its JavaScript form alone would mislead: timestamps
 * (text or binary) decode to bigint microseconds, which would otherwise be bound as LONG and
 * stored unconverted into DATE (ms) and TIMESTAMP_NS (ns) columns. Undefined: the engine
 * types the value itself.
 */
export function decodedParamType(oid: number, value: Value): ColumnType | undefined {
  if ((oid === OID.TIMESTAMP || oid === OID.TIMESTAMPTZ) && typeof value === "bigint") return T.TIMESTAMP;
  if (value instanceof DoubleArray) return arrayType(value.dims);
  // bytea (text `\x..` or binary) is BINARY: a Uint8Array alone would bind as a string.
  if (value instanceof Uint8Array) return T.BINARY;
  return undefined;
}

/**
 * The value and type a decoded parameter binds with: NUMERIC text becomes a DECIMAL of the
 * digits it has (`2.5` → DECIMAL(2,1) 25n); others as `decodedParamType` says.
 */
export function typedParam(oid: number, value: Value): { value: Value; type: ColumnType | undefined } {
  if (oid === OID.NUMERIC && typeof value === "string") {
    const d = parseDecimalText(value)!;
    return {
      value: d.unscaled,
      type: decimalType(Math.min(76, Math.max(d.precision, d.scale + 1)), d.scale),
    };
  }
  return { value, type: decodedParamType(oid, value) };
}

function checkLength(bytes: Uint8Array, required: number, index: number): DataView {
  if (bytes.length !== required) {
    throw new SqlError(
      `bad parameter value length [sizeRequired=${required}, sizeActual=${bytes.length}, variableIndex=${index}]`,
      -1,
      "semantic",
    );
  }
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** A binary-format value of parameter type `oid`; other OIDs are UTF-8 text (§12.8). */
export function decodeBinaryParam(bytes: Uint8Array, oid: number, index: number): Value {
  switch (oid) {
    case OID.BOOL:
      return checkLength(bytes, 1, index).getUint8(0) !== 0;
    case OID.INT2:
      return checkLength(bytes, 2, index).getInt16(0);
    case OID.INT4:
    case OID.OID:
      return checkLength(bytes, 4, index).getInt32(0);
    case OID.INT8:
      return checkLength(bytes, 8, index).getBigInt64(0);
    case OID.FLOAT4:
      return checkLength(bytes, 4, index).getFloat32(0);
    case OID.FLOAT8:
      return checkLength(bytes, 8, index).getFloat64(0);
    case OID.NUMERIC:
      return decodeBinaryNumeric(bytes, index);
    case OID.FLOAT8_ARRAY:
    case OID.INT8_ARRAY:
    case 1021: // _float4
    case 1007: // _int4
    case 1005: // _int2
      return decodeBinaryArray(bytes, index);
    case OID.TIMESTAMP:
    case OID.TIMESTAMPTZ:
      return checkLength(bytes, 8, index).getBigInt64(0) + PG_EPOCH_MICROS;
    case OID.DATE: {
      const days = checkLength(bytes, 4, index).getInt32(0) + 10957;
      const [y, m, d] = civilFromDays(days);
      return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
    }
    case OID.UUID: {
      checkLength(bytes, 16, index);
      const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${
        hex.slice(20)
      }`;
    }
    case OID.BYTEA:
      return bytes.slice();
    case OID.BPCHAR:
    case OID.CHAR: {
      const s = utf8(bytes);
      return s.length > 0 ? [...s][0] : null;
    }
    default:
      return utf8(bytes);
  }
}
