/**
 * Every key of the README's configuration table is read by the code (issue 20: no documented
 * key that nothing reads). A key counts as read when the source of main.ts, server/ or engine/
 * holds it as a string literal (`config.get("pg.user")`), or when a template literal that
 * reads keys (`acl.oidc.${k}`, `${prefix}.tls.${name}`) builds it from parts that are
 * themselves string literals in the source (`get("client.id")`, `config.tls("pg")`).
 */
import assert from "node:assert/strict";

const repo = new URL("../../", import.meta.url);

function sourceFiles(dir: URL): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(dir)) {
    if (e.isDirectory) out.push(...sourceFiles(new URL(`${e.name}/`, dir)));
    else if (e.name.endsWith(".ts")) out.push(Deno.readTextFileSync(new URL(e.name, dir)));
  }
  return out;
}

/** A config key as written in the table: dotted lower-case words, `*` for a family. */
const KEY = /^[a-z*][a-z0-9*]*(\.[a-z0-9*]+)+$/;

/**
 * The keys of the README table under "## Configuration": every key of the first column, and
 * every key-shaped code span of the meaning column (`line.tcp.acl.enabled`, `*.tls.key.path`).
 */
function readmeKeys(readme: string): string[] {
  const section = readme.split(/^## Configuration$/m)[1]?.split(/^## /m)[0] ?? "";
  const keys = new Set<string>();
  for (const line of section.split("\n")) {
    if (!line.startsWith("| `")) continue;
    const [, first, , meaning] = line.split("|");
    for (const m of first.matchAll(/`([^`]+)`/g)) keys.add(m[1]);
    for (const m of (meaning ?? "").matchAll(/`([^`=]+)(=[^`]*)?`/g)) if (KEY.test(m[1])) keys.add(m[1]);
  }
  return [...keys];
}

/** String literals without substitutions, and template literals with them. */
function literals(sources: string[]): { plain: Set<string>; templates: string[] } {
  const plain = new Set<string>();
  const templates: string[] = [];
  for (const text of sources) {
    for (const m of text.matchAll(/"([^"\\\n]*)"|'([^'\\\n]*)'|`([^`\\]*)`/g)) {
      const s = m[1] ?? m[2] ?? m[3];
      if (m[3] !== undefined && s.includes("${")) templates.push(s);
      else plain.add(s);
    }
  }
  return { plain, templates };
}

/** True when `key` is the template with each `${…}` replaced by some literal of the source. */
function builtBy(template: string, key: string, plain: Set<string>): boolean {
  const parts = template.split(/\$\{[^}]*\}/);
  const match = (at: number, i: number): boolean => {
    if (!key.startsWith(parts[i], at)) return false;
    at += parts[i].length;
    if (i === parts.length - 1) return at === key.length;
    for (let end = at + 1; end <= key.length; end++) {
      if (plain.has(key.slice(at, end)) && match(end, i + 1)) return true;
    }
    return false;
  };
  return parts.length > 1 && match(0, 0);
}

Deno.test("every key of the README's configuration table is read somewhere in the code", () => {
  const keys = readmeKeys(Deno.readTextFileSync(new URL("README.md", repo)));
  assert.ok(keys.length >= 20, `the table was found (${keys.length} keys)`);
  const sources = [
    Deno.readTextFileSync(new URL("main.ts", repo)),
    ...sourceFiles(new URL("server/", repo)),
    ...sourceFiles(new URL("engine/", repo)),
  ];
  const { plain, templates } = literals(sources);
  const unread: string[] = [];
  for (const key of keys) {
    if (key.endsWith(".*")) {
      // A family of keys: some template reads at least one key under that prefix.
      const prefix = key.slice(0, -1);
      const words = [...plain].filter((p) => /^[a-z][a-z.]*$/.test(p));
      if (!templates.some((t) => words.some((w) => builtBy(t, prefix + w, plain)))) unread.push(key);
      continue;
    }
    if (key.startsWith("*.")) {
      // The same key under every listener prefix: at least one prefixed spelling is read.
      if (![...plain].some((p) => p.endsWith(key.slice(1)))) unread.push(key);
      continue;
    }
    if (!plain.has(key) && !templates.some((t) => builtBy(t, key, plain))) unread.push(key);
  }
  assert.deepEqual(unread, [], "documented keys that no code reads");
});

Deno.test("the README key check notices a key that nothing reads", () => {
  const { plain, templates } = literals([
    'config.get("pg.user"); const k = (n) => config.get(`acl.oidc.${n}`); get("client.id");',
  ]);
  assert.ok(plain.has("pg.user"));
  assert.ok(templates.some((t) => builtBy(t, "acl.oidc.client.id", plain)));
  assert.ok(!templates.some((t) => builtBy(t, "acl.oidc.never.read", plain)));
  assert.ok(!plain.has("pg.never.read"));
});
