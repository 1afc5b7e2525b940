/**
 * Builds the Web Console into console/dist: bundles console/main.tsx with `deno bundle`
 * (browser platform, minified), concatenates the style sheets, names both after a hash of
 * their content (the server caches them forever) and writes index.html pointing at them.
 * Run with `deno run -A console/build.ts`; `--if-missing` skips the work when dist exists,
 * `--if-stale` when dist is newer than every source file.
 */

const ROOT = new URL("./", import.meta.url);
const DIST = new URL("dist/", ROOT);
const STYLE_SOURCES = [new URL("styles.css", ROOT)];

async function exists(url: URL): Promise<boolean> {
  try {
    await Deno.stat(url);
    return true;
  } catch {
    return false;
  }
}

async function contentHash(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  return Array.from(digest.slice(0, 6), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** uPlot's own style sheet, read from the npm cache through module resolution. */
async function uplotCss(): Promise<string> {
  const resolved = import.meta.resolve("uplot");
  if (resolved.startsWith("file:")) {
    const css = new URL("../dist/uPlot.min.css", resolved);
    if (await exists(css)) return await Deno.readTextFile(css);
  }
  // Under the global npm cache the resolution is an npm: specifier; find the package folder.
  const cache = await denoNpmCache();
  const dir = `${cache}/registry.npmjs.org/uplot`;
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}/dist/uPlot.min.css`;
    if (await exists(new URL(`file://${path}`))) return await Deno.readTextFile(path);
  }
  throw new Error("uPlot.min.css not found in the npm cache");
}

async function denoNpmCache(): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped" }).output();
  return JSON.parse(new TextDecoder().decode(out.stdout)).npmCache as string;
}

async function bundle(outFile: URL): Promise<void> {
  const entry = new URL("main.tsx", ROOT).pathname;
  const status = await new Deno.Command(Deno.execPath(), {
    args: [
      "bundle",
      "--unstable-npm-lazy-caching",
      "--quiet",
      "--platform",
      "browser",
      "--minify",
      "-o",
      outFile.pathname,
      entry,
    ],
    stdout: "inherit",
    stderr: "inherit",
  }).spawn().status;
  if (!status.success) throw new Error("deno bundle failed");
}

export async function buildConsole(): Promise<string[]> {
  await Deno.remove(DIST, { recursive: true }).catch(() => {});
  await Deno.mkdir(DIST, { recursive: true });
  const tmp = new URL("app.tmp.js", DIST);
  await bundle(tmp);
  const js = await Deno.readFile(tmp);
  await Deno.remove(tmp);
  const jsName = `app-${await contentHash(js)}.js`;
  await Deno.writeFile(new URL(jsName, DIST), js);

  const styles = [await uplotCss(), ...await Promise.all(STYLE_SOURCES.map((u) => Deno.readTextFile(u)))];
  const css = new TextEncoder().encode(styles.join("\n"));
  const cssName = `app-${await contentHash(css)}.css`;
  await Deno.writeFile(new URL(cssName, DIST), css);

  const icon = await Deno.readFile(new URL("favicon.svg", ROOT));
  await Deno.writeFile(new URL("favicon.svg", DIST), icon);

  const template = await Deno.readTextFile(new URL("index.html", ROOT));
  const html = template.replace("{{CSS}}", cssName).replace("{{JS}}", jsName);
  await Deno.writeTextFile(new URL("index.html", DIST), html);
  return ["index.html", jsName, cssName, "favicon.svg"];
}

/** Newest modification time of the console's sources (dist excluded), in ms. */
async function sourcesMtimeMs(dir = ROOT): Promise<number> {
  let newest = 0;
  for await (const entry of Deno.readDir(dir)) {
    const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
    if (entry.isDirectory) {
      if (entry.name !== "dist") newest = Math.max(newest, await sourcesMtimeMs(url));
    } else newest = Math.max(newest, (await Deno.stat(url)).mtime?.getTime() ?? 0);
  }
  return newest;
}

/** True when dist/index.html exists and is newer than every source file. */
async function upToDate(): Promise<boolean> {
  const index = new URL("index.html", DIST);
  if (!await exists(index)) return false;
  const built = (await Deno.stat(index)).mtime?.getTime() ?? 0;
  return built >= await sourcesMtimeMs();
}

if (import.meta.main) {
  if (Deno.args.includes("--if-missing") && await exists(new URL("index.html", DIST))) Deno.exit(0);
  if (Deno.args.includes("--if-stale") && await upToDate()) Deno.exit(0);
  const started = performance.now();
  const files = await buildConsole();
  console.log(
    `console built into console/dist (${files.join(", ")}) in ${Math.round(performance.now() - started)} ms`,
  );
}
