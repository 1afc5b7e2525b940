/**
 * What the process knows about itself that Deno has no API for: open file descriptors (Linux
 * /proc) and a count of garbage collections, observed with a finalization probe.
 */

/** Open file descriptors, or undefined where /proc/self/fd does not exist. */
export function openFileCount(): number | undefined {
  try {
    let n = 0;
    for (const _ of Deno.readDirSync("/proc/self/fd")) n++;
    return n - 1; // the descriptor of the listing itself
  } catch {
    return undefined;
  }
}

let observed = 0;
let probe: FinalizationRegistry<number> | undefined;

/**
 * Collections observed since the first call. A fresh object is registered with a
 * FinalizationRegistry; its callback (after a collection freed it) counts one and registers
 * the next. Several collections between two turns of the event loop count once.
 */
export function gcObserved(): number {
  if (!probe) {
    probe = new FinalizationRegistry(() => {
      observed++;
      arm();
    });
    arm();
  }
  return observed;
}

function arm(): void {
  probe!.register({}, 0);
}
