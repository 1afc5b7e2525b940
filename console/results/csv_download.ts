/**
 * CSV download of the whole result through `/exp` (the same SQL, every row, not just the
 * pages the grid loaded). Without auth the browser streams the file straight from the server.
 * After a password login the server's session cookie authorizes `/exp`, so the file also
 * streams, through a hidden iframe whose body is read back when the server answers with an
 * error instead of a file (spec/console.md §2.6). Only an OIDC login, whose Bearer token the
 * cookie may outlive, fetches with the header and hands the file over as a blob. The
 * credentials never go into a URL.
 */
import { authHeader, authStore } from "../auth/auth_state.ts";
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

function errorText(body: string): string {
  try {
    return JSON.parse(body).error ?? body;
  } catch {
    return body;
  }
}

/**
 * Streams the download through a hidden iframe, which sends the session cookie. A file
 * (Content-Disposition: attachment) never loads a document in it; an error body does, and is
 * shown as a toast.
 */
function iframeDownload(href: string): void {
  const frame = document.createElement("iframe");
  frame.style.display = "none";
  frame.setAttribute("data-testid", "download-frame");
  frame.addEventListener("load", () => {
    const body = frame.contentDocument?.body?.textContent ?? "";
    if (body.trim()) toast("error", `CSV export failed: ${errorText(body)}`);
  });
  frame.src = href;
  document.body.appendChild(frame);
  setTimeout(() => frame.remove(), 60_000);
}

export async function downloadCsv(query: string): Promise<void> {
  const filename = `questdb-query-${Date.now()}`;
  const auth = authHeader();
  const { session, mode } = authStore.get();
  if (!auth && !session) {
    clickLink(expUrl(query, filename), filename);
    return;
  }
  if (session && mode === "password") {
    iframeDownload(expUrl(query, filename));
    return;
  }
  const res = await fetch(expUrl(query, filename), { headers: auth ? { Authorization: auth } : {} });
  if (!res.ok) {
    toast("error", `CSV export failed: ${errorText(await res.text())}`);
    return;
  }
  const url = URL.createObjectURL(await res.blob());
  clickLink(url, filename);
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
