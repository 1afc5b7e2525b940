/** A small deterministic PRNG (LCG) and pickers, so every fuzz failure replays from its seed. */

export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

export function rng(seed: number): Rng {
  let s = (seed >>> 0) || 1;
  const next = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: (items) => items[int(items.length)], chance: (p) => next() < p };
}

/** How many inputs a fuzz target runs: FUZZ_INPUTS (the long `deno task fuzz` sets 100000), else `quick`. */
export function fuzzInputs(quick: number): number {
  const n = Number(Deno.env.get("FUZZ_INPUTS"));
  return Number.isFinite(n) && n > 0 ? n : quick;
}

/** The seed of a run: FUZZ_SEED when given (to replay), else fixed so CI runs are repeatable. */
export function fuzzSeed(): number {
  const n = Number(Deno.env.get("FUZZ_SEED"));
  return Number.isFinite(n) && n > 0 ? n : 20261124;
}

/** Byte-level mutations of a valid input: flips, deletions, duplications, splices, truncation. */
export function mutateBytes(r: Rng, input: Uint8Array, alphabet: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = [...input];
  const edits = 1 + r.int(4);
  for (let e = 0; e < edits; e++) {
    const at = r.int(out.length + 1);
    switch (r.int(6)) {
      case 0:
        if (out.length) out[Math.min(at, out.length - 1)] = r.int(256);
        break;
      case 1:
        out.splice(at, 1 + r.int(4));
        break;
      case 2:
        out.splice(at, 0, ...out.slice(at, at + 1 + r.int(8)));
        break;
      case 3:
        out.splice(at, 0, alphabet[r.int(alphabet.length)]);
        break;
      case 4:
        out.length = Math.min(out.length, at);
        break;
      default:
        out.splice(at, 0, ...out.slice(r.int(out.length + 1)).slice(0, 16));
    }
  }
  return new Uint8Array(out);
}
