/**
 * One round of the crash tests (convert_crash_test.ts, cold_storage_crash_test.ts): start a child
 * script that works on a table root in a loop, wait until it prints "ready", let it work for
 * `workMs`, SIGKILL it. The child prints `commitWord` after each committed step; the count tells
 * the caller whether kills also landed between commits.
 */
import assert from "node:assert/strict";

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
