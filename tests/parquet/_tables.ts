/**
 * Set-ups the Parquet tests share: a table of every type the Parquet encoder takes, its
 * answers to a list of queries as comparable text, and the message of a statement that must
 * fail.
 */
import { adminSession, type Engine, type SqlError } from "../../engine/mod.ts";
import { rows } from "./_rows.ts";

/**
 * `CREATE TABLE <name>`: 200 rows over five DAY partitions with every storable type the
 * Parquet encoder takes, NULLs included, and text outside ASCII (2- and 3-byte UTF-8).
 */
export function typesTable(name: string): string {
  return `CREATE TABLE ${name} AS (
  SELECT timestamp_sequence('2024-01-01', 1800000000L) ts,
    rnd_symbol('A','B','C', NULL) sym,
    CASE WHEN x % 9 = 0 THEN NULL ELSE x * 1.25 END d,
    x l,
    CASE WHEN x % 4 = 0 THEN NULL ELSE cast(x AS INT) END i,
    CASE WHEN x % 6 = 0 THEN NULL ELSE 'v' || x || 'é' END vc,
    cast(CASE WHEN x % 5 = 0 THEN NULL ELSE 's' || x || '字' END AS STRING) st,
    x % 2 = 0 b,
    cast(x AS SHORT) sh,
    cast(x % 100 AS BYTE) by,
    cast(x / 3.0 AS FLOAT) f,
    cast(x * 1000 AS DATE) dt,
    rnd_uuid4() u,
    rnd_geohash(30) g,
    rnd_ipv4() ip,
    rnd_long256() l256,
    rnd_char() ch
  FROM long_sequence(200)) TIMESTAMP(ts) PARTITION BY DAY`;
}

/** The rows of each query as JSON text (bigints marked), to compare whole answers. */
export async function answers(engine: Engine, queries: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const q of queries) {
    out.push(JSON.stringify(await rows(engine, q), (_, v) => typeof v === "bigint" ? `${v}n` : v));
  }
  return out;
}

/** The message of the error `sql` fails with; throws when it succeeds. */
export async function failure(engine: Engine, sql: string): Promise<string> {
  try {
    const outcome = await engine.execute(sql, adminSession());
    // A query's error may come with its batches.
    if (outcome.kind === "rows") await Array.fromAsync(outcome.batches);
  } catch (e) {
    return (e as SqlError).message;
  }
  throw new Error(`expected an error from ${sql}`);
}
