/**
 * One round of the crash tests (convert_crash_test.ts, cold_storage_crash_test.ts,
 * parquet_merge_test.ts): start a child script that works on a table root in a loop, wait until
 * it prints "ready", let it work for `workMs`, SIGKILL it. The child prints `commitWord` after
 * each committed step; the count tells the caller whether kills also landed between commits.
 * Also the table those tests crash and how they read it back.
 */
import assert from "node:assert/strict";
import { Engine, type Value } from "../../engine/mod.ts";
import { rows } from "./_rows.ts";
import { answers } from "./_tables.ts";

/** The crash tests' table t: 100,000 rows over five DAY partitions, NULLs in d and vc. */
export const CRASH_TABLE =
  `CREATE TABLE t AS (SELECT timestamp_sequence('2024-01-01', 4000000L) ts, rnd_symbol('A','B','C') sym,
     x l, CASE WHEN x % 9 = 0 THEN NULL ELSE x * 0.5 END d,
     CASE WHEN x % 6 = 0 THEN NULL ELSE 'v' || x END vc
   FROM long_sequence(100000)) TIMESTAMP(ts) PARTITION BY DAY`;

/** What the crash tests compare before and after a kill. */
export const CRASH_QUERIES = [
  "SELECT sym, count(), sum(l), sum(d), count(vc), min(ts), max(ts) FROM t GROUP BY sym ORDER BY sym",
  "SELECT * FROM t WHERE l % 997 = 0",
];

/** CRASH_QUERIES' answers and table t's partitions (name, isParquet) from a fresh engine on `root`. */
export async function answersAt(root: string): Promise<{ text: string; formats: Value[][] }> {
  const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024 });
  try {
    const text = JSON.stringify(await answers(engine, CRASH_QUERIES));
    return { text, formats: await rows(engine, "SELECT name, isParquet FROM table_partitions('t')") };
  } finally {
    await engine.close();
  }
}

/**
 * Kills the child of `round` `rounds` times, each after a random `workMs` below `workMsMax`
 * (and up to four longer rounds while no commit was seen),
 * checking after each kill that table t answers as before it started, with as many partitions
 * (the same formats too unless `formatsMayChange`) and one folder per partition. Returns the
 * commits the child reported.
 */
export async function killRounds(
  root: string,
  options: Omit<KillRound, "workMs"> & { rounds: number; workMsMax: number; formatsMayChange?: boolean },
): Promise<number> {
  const before = await answersAt(root);
  let commits = 0;
  for (let round = 0; killAgain(round, options.rounds, commits); round++) {
    commits += await runAndKill({
      ...options,
      workMs: workWindowMs(round, options.rounds, 50, options.workMsMax),
    });
    const after = await answersAt(root);
    assert.equal(after.text, before.text, `round ${round}: answers changed after the kill`);
    assert.equal(after.formats.length, before.formats.length);
    if (!options.formatsMayChange) assert.deepEqual(after.formats, before.formats, `round ${round}: formats`);
    const folders = partitionFolders(root);
    assert.equal(
      folders.length,
      before.formats.length,
      `round ${round}: recovery left stray folders ${folders}`,
    );
  }
  return commits;
}

/**
 * Whether round `round` runs: the first `rounds`, then, while no commit was seen, up to four
 * more. A loaded machine can make every random window too short for a commit.
 */
export function killAgain(round: number, rounds: number, commits: number): boolean {
  return round < rounds || (commits === 0 && round < rounds + 4);
}

/**
 * How long round `round` lets the child work: `minMs` plus a random part below `maxMs` for the
 * first `rounds`, then (the extra rounds of killAgain) twice `maxMs`, four times, ... so kills
 * also land between commits.
 */
export function workWindowMs(round: number, rounds: number, minMs: number, maxMs: number): number {
  return round < rounds ? minMs + Math.floor(Math.random() * maxMs) : maxMs * 2 ** (round - rounds + 1);
}

/** The partition folders of table t in `root` (recovery leaves one per partition). */
export function partitionFolders(root: string): string[] {
  const tableDir = [...Deno.readDirSync(root)].find((e) => e.name.startsWith("t~"))!.name;
  return [...Deno.readDirSync(`${root}/${tableDir}`)].filter((e) => e.isDirectory).map((e) => e.name);
}

export interface KillRound {
  /** Child script next to this file, e.g. "./_convert_crash_child.ts". */
  script: string;
  args: string[];
  /** Word the child prints once per committed step. */
  commitWord: string;
  /** What the child is, for the failure message when it exits by itself. */
  label: string;
  workMs: number;
}

/** Runs the child until `ready`, lets it work for `workMs`, kills it; returns the commits it reported. */
export async function runAndKill(round: KillRound): Promise<number> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-prompt", new URL(round.script, import.meta.url).pathname, ...round.args],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let commits = 0;
  let ready!: () => void;
  const isReady = new Promise<void>((r) => ready = r);
  const reading = (async () => {
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      if (chunk.includes("ready")) ready();
      commits += chunk.split(round.commitWord).length - 1;
    }
  })();
  const stderr = new Response(child.stderr).text();
  await Promise.race([isReady, child.status]);
  await new Promise((r) => setTimeout(r, round.workMs));
  try {
    child.kill("SIGKILL");
  } catch { /* exited on its own: the status check below reports it */ }
  const status = await child.status;
  await reading;
  assert.equal(status.signal, "SIGKILL", `${round.label} exited by itself: ${await stderr}`);
  return commits;
}
