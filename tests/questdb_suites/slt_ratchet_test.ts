/**
 * Ratchet over QuestDB's own sqllogictest files (issue 19; README.md here): the server runs
 * them through pgwire with the Python runner, and the test fails when fewer records pass than
 * slt_baseline.json says, or when a record outside slt_known_failures.tsv fails (a regression
 * even if some other record started passing). QDB_SLT_UPDATE=1 rewrites both files.
 */
import assert from "node:assert/strict";
import { startServer } from "../e2e/server_process.ts";
import { DEBIAN_PYTHON, requireFile, run } from "../e2e/clients/pg_tools.ts";

const HERE = new URL(".", import.meta.url).pathname;
const RUNNER = `${HERE}slt_runner.py`;
const BASELINE = `${HERE}slt_baseline.json`;
const KNOWN = `${HERE}slt_known_failures.tsv`;

interface RecordResult {
  line: number;
  ok: boolean;
  why?: string;
  got?: string;
}
interface RunResult {
  records_passed: number;
  records_total: number;
  results: { file: string; parse_error?: string | null; records: RecordResult[] }[];
}

/** `file:line` → reason, for every failing record (and one entry per file that does not parse). */
function failures(r: RunResult): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of r.results) {
    if (f.parse_error) {
      out.set(`${f.file}:0`, `file does not parse: ${f.parse_error.replace(/^.*?:\d+: /, "")}`);
    }
    for (const rec of f.records) {
      if (rec.ok) continue;
      const got = (rec.got ?? "").split("\n")[0].replace(/^ERROR: db error: /, "");
      out.set(`${f.file}:${rec.line}`, `${rec.why ?? "failed"}: ${got}`.slice(0, 200));
    }
  }
  return out;
}

function readKnown(): Set<string> {
  const text = Deno.readTextFileSync(KNOWN);
  return new Set(text.split("\n").filter((l) => l && !l.startsWith("#")).map((l) => l.split("\t")[0]));
}

function writeUpdate(r: RunResult, failed: Map<string, string>): void {
  const baseline = { records_passed: r.records_passed, records_total: r.records_total };
  Deno.writeTextFileSync(BASELINE, JSON.stringify(baseline, null, 2) + "\n");
  const lines = [...failed].map(([k, why]) => `${k}\t${why.replace(/[\t\n]/g, " ")}`);
  Deno.writeTextFileSync(
    KNOWN,
    `# Records of QuestDB's sqllogictest files that fail here, with the reason (written by QDB_SLT_UPDATE=1)\n${
      lines.join("\n")
    }\n`,
  );
}

Deno.test({
  name:
    "QuestDB's sqllogictest files: no fewer records pass than the baseline, and no known-good record fails",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await requireFile(DEBIAN_PYTHON, "Debian python3");
    const probe = await run(DEBIAN_PYTHON, ["-c", "import psycopg"]);
    assert.equal(
      probe.code,
      0,
      `python3-psycopg (psycopg 3) is not installed; run .ci/install_pg_clients.sh\n${probe.stderr}`,
    );
    const out = await Deno.makeTempFile({ prefix: "qdb_slt_", suffix: ".json" });
    // BACKUP records need cairo.sql.backup.root, as QuestDB's own test harness sets it; relative: under
    // the temporary root, removed with it.
    const server = await startServer({ pg: true, env: { QDB_CAIRO_SQL_BACKUP_ROOT: "backups" } });
    let result: RunResult;
    try {
      const r = await run(
        DEBIAN_PYTHON,
        [RUNNER, "--port", String(server.pgPort), "--root", `${HERE}sqllogictest`, "--out", out],
        { timeoutMs: 300_000, env: { PYTHONDONTWRITEBYTECODE: "1" } },
      );
      assert.equal(r.code, 0, `the runner failed:\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-4000)}`);
      result = JSON.parse(await Deno.readTextFile(out));
    } finally {
      await server.stop();
      await Deno.remove(out).catch(() => {});
      await Deno.remove(server.root, { recursive: true }).catch(() => {});
    }
    const failed = failures(result);
    if (Deno.env.get("QDB_SLT_UPDATE") === "1") writeUpdate(result, failed);
    const baseline = JSON.parse(Deno.readTextFileSync(BASELINE)) as { records_passed: number };
    const known = readKnown();
    const regressions = [...failed].filter(([k]) => !known.has(k)).map(([k, why]) => `  ${k}  ${why}`);
    console.log(
      `sqllogictest: ${result.records_passed}/${result.records_total} records passed (baseline ${baseline.records_passed})`,
    );
    if (result.records_passed > baseline.records_passed) {
      console.log("more records pass than the baseline: raise it with QDB_SLT_UPDATE=1 (README.md)");
    }
    assert.equal(regressions.length, 0, `records that passed before now fail:\n${regressions.join("\n")}`);
    assert.ok(
      result.records_passed >= baseline.records_passed,
      `${result.records_passed} records passed, fewer than the baseline ${baseline.records_passed}`,
    );
  },
});
