/** Bounded concurrency for file work: many columns at once, but not unboundedly many open files. */

/** Runs `work` for every item with at most `limit` in flight; the first error is rethrown after all settle. */
export async function forEachLimit<T>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (next < items.length && !failure) {
      const i = next++;
      try {
        await work(items[i], i);
      } catch (e) {
        failure ??= { error: e };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
}
