/** An async mutex: writes on one table run one at a time (docs/storage.md "Concurrency"). */

export class Mutex {
  #tail: Promise<unknown> = Promise.resolve();

  /** Runs `work` after every earlier holder has finished; its result or error is passed through. */
  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(work);
    // The chain must survive a failed holder, so the tail swallows the error it already reported.
    this.#tail = result.catch(() => {});
    return result;
  }
}
