/**
 * The scalar form of an N-dimensional DOUBLE array (spec/sql.md §22): a shape and the elements
 * in dense row-major order. NaN elements are NULL elements. Values are immutable once built:
 * functions make new arrays rather than change their inputs, so a value can be shared between
 * rows, constants and caches.
 */
export class DoubleArray {
  constructor(readonly shape: readonly number[], readonly data: Float64Array) {}

  get dims(): number {
    return this.shape.length;
  }

  /** Row-major strides of the shape (elements per step along each dimension). */
  strides(): number[] {
    const out = new Array<number>(this.shape.length);
    let s = 1;
    for (let d = this.shape.length - 1; d >= 0; d--) {
      out[d] = s;
      s *= this.shape[d];
    }
    return out;
  }

  static of1(values: ArrayLike<number>): DoubleArray {
    return new DoubleArray([values.length], Float64Array.from(values));
  }

  /** An empty array of `dims` dimensions (every dimension of length 0). */
  static empty(dims: number): DoubleArray {
    return new DoubleArray(new Array(dims).fill(0), new Float64Array(0));
  }
}

/** Whether two arrays have the same shape and equal elements, NULL (NaN) elements equal (§22.4). */
export function arraysEqual(a: DoubleArray, b: DoubleArray): boolean {
  if (a.shape.length !== b.shape.length) return false;
  for (let d = 0; d < a.shape.length; d++) if (a.shape[d] !== b.shape[d]) return false;
  for (let i = 0; i < a.data.length; i++) {
    const x = a.data[i], y = b.data[i];
    if (x !== y && !(Number.isNaN(x) && Number.isNaN(y))) return false;
  }
  return true;
}

/** Bytes of the stored form: per dimension an int32 LE length, then the float64 LE elements. */
export function encodeArrayBytes(a: DoubleArray): Uint8Array {
  const out = new Uint8Array(4 * a.shape.length + 8 * a.data.length);
  const view = new DataView(out.buffer);
  a.shape.forEach((n, d) => view.setInt32(4 * d, n, true));
  const base = 4 * a.shape.length;
  for (let i = 0; i < a.data.length; i++) view.setFloat64(base + 8 * i, a.data[i], true);
  return out;
}

/** Reads the stored form of an array of `dims` dimensions from `bytes[from, from + length)`. */
export function decodeArrayBytes(bytes: Uint8Array, from: number, length: number, dims: number): DoubleArray {
  const view = new DataView(bytes.buffer, bytes.byteOffset + from, length);
  const shape = new Array<number>(dims);
  for (let d = 0; d < dims; d++) shape[d] = view.getInt32(4 * d, true);
  const n = (length - 4 * dims) / 8;
  const data = new Float64Array(n);
  for (let i = 0; i < n; i++) data[i] = view.getFloat64(4 * dims + 8 * i, true);
  return new DoubleArray(shape, data);
}
