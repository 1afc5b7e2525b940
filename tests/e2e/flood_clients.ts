/**
 * Half-open connection floods for the tests of issue 24: many raw sockets that each send a
 * few bytes and then nothing. Opened in batches so the test process stays well below its file
 * limit (1,500 sockets here plus the server's own 1,500 in another process; `ulimit -n` is
 * checked first) and closed all together at the end.
 */

export interface Flood {
  /** Sockets the server accepted (connect succeeded). */
  opened: number;
  /** Closes every socket of the flood. */
  close(): void;
  /** How many of the sockets the server has closed, read without blocking for long. */
  closedByServer(waitMs: number): Promise<number>;
}

const BATCH = 100;

/** Fails with the reason when the process may not open `sockets` more files. */
export function assertFileLimit(sockets: number): void {
  const out = new Deno.Command("sh", { args: ["-c", "ulimit -n"] }).outputSync();
  const text = new TextDecoder().decode(out.stdout).trim();
  const limit = text === "unlimited" ? Infinity : Number(text);
  if (!(limit >= sockets + 256)) {
    throw new Error(
      `ulimit -n is ${text}; this test needs at least ${sockets + 256} (raise it with ulimit -n)`,
    );
  }
}

/** Opens `count` connections to the port, each sending `bytes` once. */
export async function flood(port: number, count: number, bytes: Uint8Array): Promise<Flood> {
  const conns: Deno.Conn[] = [];
  for (let at = 0; at < count; at += BATCH) {
    const batch = await Promise.allSettled(
      Array.from({ length: Math.min(BATCH, count - at) }, async () => {
        const conn = await Deno.connect({ hostname: "127.0.0.1", port });
        conns.push(conn);
        // The server may already have evicted it: a failed write is part of the flood's life.
        if (bytes.length > 0) await conn.write(bytes).catch(() => 0);
      }),
    );
    for (const r of batch) if (r.status === "rejected") throw r.reason;
  }
  return {
    opened: conns.length,
    close() {
      for (const c of conns) {
        try {
          c.close();
        } catch { /* already closed */ }
      }
    },
    async closedByServer(waitMs: number) {
      const buf = new Uint8Array(1024);
      const ended = await Promise.all(conns.map(async (c) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const timeout = new Promise<"open">((r) => timer = setTimeout(() => r("open"), waitMs));
        try {
          // Reads until the end: the server may send an error or a challenge before closing.
          // A reset counts as closed; a read still pending when the flood closes must not throw.
          for (;;) {
            const n = await Promise.race([c.read(buf).catch(() => null), timeout]);
            if (n === "open") return false;
            if (n === null) return true;
          }
        } finally {
          clearTimeout(timer);
        }
      }));
      return ended.filter(Boolean).length;
    },
  };
}
