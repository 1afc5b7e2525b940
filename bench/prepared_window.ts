/**
 * A dashboard's query over pgwire as a prepared statement: `count(*), avg(price)` of `trades`
 * for a one-hour window bound per execution (Parse once, Bind/Execute per window), and the
 * same window as a literal query for reference. Prints the median milliseconds per execution.
 *
 *   deno run -A --config deno.dev.json bench/prepared_window.ts <host:port> [executions]
 *
 * Point it at a server on a bench root (bench/data/qdb-10m copied elsewhere: the server
 * writes to its root). Windows are whole hours spread over the table's time range.
 */
import pg from "pg";

const [hostPort = "127.0.0.1:8812", n = "40"] = Deno.args;
const [host, port] = hostPort.split(":");
const executions = Number(n);

const client = new pg.Client({
  host,
  port: Number(port),
  user: "admin",
  password: "quest",
  database: "qdb",
  types: { getTypeParser: () => (v: string) => v },
});
await client.connect();
const [[lo, hi]] = (await client.query({
  text: "SELECT min(ts)::long, max(ts)::long FROM trades",
  rowMode: "array",
})).rows as [string, string][];
const HOUR = 3_600_000_000n;
const first = BigInt(lo) / HOUR, hours = (BigInt(hi) - BigInt(lo)) / HOUR;
const iso = (us: bigint) => new Date(Number(us / 1000n)).toISOString().replace("Z", "000Z");
/** The i-th window: hours spread over the range by a fixed stride. */
const windowOf = (i: number): [string, string] => {
  const h = (first + (BigInt(i) * 7919n) % hours) * HOUR;
  return [iso(h), iso(h + HOUR)];
};

const SQL = "SELECT count(*), avg(price) FROM trades WHERE ts >= $1 AND ts < $2";

async function time(fn: (i: number) => Promise<unknown>): Promise<number> {
  // Warm-up: plan cached, and every window's columns read once (the first reader of a
  // partition pays for loading it; both forms run over warm partitions).
  for (let i = 0; i < executions + 5; i++) await fn(i);
  const ms: number[] = [];
  for (let i = 0; i < executions; i++) {
    const t0 = performance.now();
    await fn(i + 5);
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return ms[ms.length >> 1];
}

const prepared = await time((i) => client.query({ name: "window", text: SQL, values: windowOf(i) }));
const literal = await time((i) => {
  const [a, b] = windowOf(i);
  return client.query(SQL.replace("$1", `'${a}'`).replace("$2", `'${b}'`));
});
// The protocol's own cost per prepared execution (Bind/Describe/Execute/Sync), for scale.
const trivial = await time((i) => client.query({ name: "trivial", text: "SELECT $1::int", values: [i] }));
const sample = await client.query({ name: "window", text: SQL, values: windowOf(1), rowMode: "array" });
console.log(
  JSON.stringify({
    executions,
    preparedMedianMs: +prepared.toFixed(2),
    literalMedianMs: +literal.toFixed(2),
    trivialPreparedMedianMs: +trivial.toFixed(2),
    sample: { window: windowOf(1), row: sample.rows[0] },
  }),
);
await client.end();
