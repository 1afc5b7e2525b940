/**
 * A hash of each row's key tuple that every heap computes alike (issue #16: partitioned
 * aggregation, hash_parallel.ts): the partition a group belongs to must not depend on which
 * worker saw the row. Keys equal for KeyIds (key_ids.ts) hash equal: NULL sentinels and
 * non-finite doubles as one NULL, -0 as 0, SYMBOLs by their code (all workers read the same
 * snapshot's dictionary), texts by their characters.
 */
import type { Value, Vector } from "../../base/values.ts";

const NULL_HASH = 0x5bd1e995;
const f64 = new Float64Array(1), w64 = new Int32Array(f64.buffer);

function mix(h: number, x: number): number {
  h = Math.imul(h ^ x, 0x9e3779b1);
  return h ^ (h >>> 15);
}

function textHash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h;
}

/** out[i] = the hash of row i's key tuple (`keys` of one batch), for i < n. */
export function keyHashes(keys: Vector[], n: number, out: Int32Array): void {
  out.fill(0x2545f491, 0, n);
  for (const v of keys) {
    const d = v.data;
    if (
      d instanceof Int32Array || d instanceof Int16Array || d instanceof Int8Array ||
      d instanceof Uint16Array || d instanceof Uint8Array
    ) {
      for (let i = 0; i < n; i++) out[i] = mix(out[i], d[i]);
    } else if (d instanceof BigInt64Array) {
      const w = new Int32Array(d.buffer, d.byteOffset, n * 2);
      for (let i = 0; i < n; i++) out[i] = mix(mix(out[i], w[2 * i]), w[2 * i + 1]);
    } else if (d instanceof Float64Array || d instanceof Float32Array) {
      for (let i = 0; i < n; i++) {
        const x = d[i];
        if (x - x !== 0) out[i] = mix(out[i], NULL_HASH);
        else {
          f64[0] = x === 0 ? 0 : x;
          out[i] = mix(mix(out[i], w64[0]), w64[1]);
        }
      }
    } else {
      const arr = d as ArrayLike<Value>;
      for (let i = 0; i < n; i++) {
        const x = arr[i] ?? null;
        out[i] = mix(out[i], x === null ? NULL_HASH : textHash(typeof x === "string" ? x : String(x)));
      }
    }
  }
}
