/**
 * Serves the built console (console/dist) with content types, caching headers and a strict
 * Content-Security-Policy: nothing is loaded from another host. Until the console is built, a
 * placeholder page says how to use the REST API.
 */
const DIST = new URL("../../console/dist/", import.meta.url);

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  woff2: "font/woff2",
  json: "application/json",
  ico: "image/x-icon",
};

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "font-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

const HASHED = /-[0-9a-f]{12}\.(?:js|css)$/;

const PLACEHOLDER =
  `<!doctype html><html><head><meta charset="utf-8"><title>QuestDB-compatible server</title></head>
<body><h1>Server is running</h1><p>Query it over REST: <code>/exec?query=SELECT%201</code>, export CSV with <code>/exp</code>.</p></body></html>`;

export async function serveConsole(path: string): Promise<Response> {
  const clean = path.replace(/^\/+/, "") || "index.html";
  if (clean.split("/").some((p) => p === ".." || p.startsWith("."))) {
    return new Response("Not Found", { status: 404 });
  }
  const ext = clean.slice(clean.lastIndexOf(".") + 1);
  const headers: Record<string, string> = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "content-type": TYPES[ext] ?? "application/octet-stream",
    // Bundles are named after their content hash (console/build.ts) and can be cached forever;
    // anything else (index.html, favicon) is revalidated.
    "cache-control": HASHED.test(clean) ? "public, max-age=31536000, immutable" : "no-cache",
  };
  try {
    const body = await Deno.readFile(new URL(clean, DIST));
    return new Response(body, { headers });
  } catch {
    if (clean === "index.html") {
      return new Response(PLACEHOLDER, { headers: { ...headers, "content-type": TYPES.html } });
    }
    return new Response("Not Found", { status: 404 });
  }
}
