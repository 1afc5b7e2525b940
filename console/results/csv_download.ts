/**
 * CSV download of the whole result through `/exp` (the same SQL, every row, not just the
 * pages the grid loaded). Without auth the browser streams the file straight from the server;
 * with a login, the request needs the Authorization header, so it is fetched and handed over
 * as a blob. The credentials never go into a URL.
 */
import { authHeader } from "../auth/auth_state.ts";
import { toast } from "../ui/toasts.ts";

export function expUrl(query: string, filename: string): string {
  return `exp?${new URLSearchParams({ query, filename })}`;
}

function clickLink(href: string, filename: string): void {
  const a = document.createElement("a");
  a.href = href;
  a.download = `${filename}.csv`;
  a.style.display = "none";
  document.body.appendChild(a);
  a.click();
  a.remove();
}

export async function downloadCsv(query: string): Promise<void> {
  const filename = `questdb-query-${Date.now()}`;
  const auth = authHeader();
  if (!auth) {
    clickLink(expUrl(query, filename), filename);
    return;
  }
  const res = await fetch(expUrl(query, filename), { headers: { Authorization: auth } });
  if (!res.ok) {
    const body = await res.text();
    let message = body;
    try {
      message = JSON.parse(body).error ?? body;
    } catch { /* plain text */ }
    toast("error", `CSV export failed: ${message}`);
    return;
  }
  const url = URL.createObjectURL(await res.blob());
  clickLink(url, filename);
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
