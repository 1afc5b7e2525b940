/**
 * An engine on a fresh temporary root for one test: the open, close and remove every engine
 * test repeats, in one place.
 */
import { Engine, type EngineOptions } from "../../engine/mod.ts";

/** Engine options without the root (a fresh temporary folder), plus the folder's name prefix. */
export type TempEngineOptions = Omit<EngineOptions, "root"> & { prefix: string };

/** Runs `fn` on an engine opened on a fresh temporary root; closes it and removes the root. */
export async function withTempEngine(
  options: TempEngineOptions,
  fn: (engine: Engine) => Promise<void>,
): Promise<void> {
  const { prefix, ...engineOptions } = options;
  const root = await Deno.makeTempDir({ prefix });
  try {
    const engine = await Engine.open({ root, ...engineOptions });
    try {
      await fn(engine);
    } finally {
      await engine.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}
