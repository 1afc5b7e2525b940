/**
 * The FILTER (WHERE ...) of a SAMPLE BY aggregate on the WASM paths: the rows of a slice that
 * pass a kernel predicate (kernel_predicates.ts runPred over numeric comparisons, AND / OR /
 * NOT), as an ascending selection vector in the slice's scratch. The keyed statistics kernel
 * then reduces only those rows, so a filtered aggregate costs one selection pass per distinct
 * condition instead of the row path.
 */
import { kernels, wasmMemory } from "../../engine-wasm/mod.ts";
import { type Pred, type PredRunner, runPred, WIDTH } from "./kernel_predicates.ts";
import { FastPathUnavailable, type Scratch } from "./wasm_scratch.ts";

/**
 * Rows [0, rows) of the slice starting at row `from` that pass `p`: `data` maps a scan column
 * to its region's row 0. Throws FastPathUnavailable when WASM memory has no room.
 */
export function filteredRows(
  p: Pred,
  data: Map<number, number>,
  from: number,
  rows: number,
  scratch: Scratch,
): { ptr: number; count: number } {
  const mem = wasmMemory();
  const k = kernels();
  const out = scratch.alloc(Math.max(16, rows * 4));
  const runner: PredRunner = {
    leaf(l, sel, to) {
      // filterIndexOf admits numeric comparisons only.
      if (l.kind !== "cmp") throw new Error("SAMPLE BY FILTER: symbol condition on the WASM path");
      const at = data.get(l.col)! + from * WIDTH[l.type];
      if (l.type === "i64") {
        const value2 = l.value2 as bigint | undefined;
        return k.filter("i64", {
          ...sel,
          data: at,
          op: l.op,
          value: l.value as bigint | null,
          value2,
          out: to,
        });
      }
      const value2 = l.value2 as number | undefined;
      return k.filter(l.type, {
        ...sel,
        data: at,
        op: l.op,
        value: l.value as number | null,
        value2,
        out: to,
      });
    },
    alloc(bytes) {
      const ptr = mem.alloc(Math.max(16, bytes));
      if (ptr < 0) throw new FastPathUnavailable();
      return ptr;
    },
    free: (ptr) => mem.free(ptr),
  };
  return { ptr: out, count: runPred(p, { rowCount: rows }, out, runner) };
}
