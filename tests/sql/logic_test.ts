/** Runs every tests/sql/<area>/*.test file as one Deno test each. */
import assert from "node:assert/strict";
import { runLogicFile } from "./logic_runner.ts";

const here = new URL(".", import.meta.url).pathname;

for (const area of [...Deno.readDirSync(here)].filter((e) => e.isDirectory).map((e) => e.name).sort()) {
  for (
    const f of [...Deno.readDirSync(`${here}${area}`)].filter((e) => e.name.endsWith(".test")).map((e) =>
      e.name
    ).sort()
  ) {
    Deno.test(`sql ${area}/${f}`, async () => {
      const failures = await runLogicFile(`${here}${area}/${f}`);
      assert.equal(failures.length, 0, failures.join("\n"));
    });
  }
}
