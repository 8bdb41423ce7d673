/** The page a browser gets at `url` (no redirect followed). */
export async function view(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; html: string; headers: Headers }> {
  const res = await fetch(url, { redirect: 'manual', headers: { accept: 'text/html', ...headers } });
  return { status: res.status, html: await res.text(), headers: res.headers };
}

/**
 * Views `url` until `shows` holds of the answer, for at most `withinMs` after `since` (the
 * moment the change's own answer arrived); returns how long after `since` it first held.
 */
export async function firstViewShowing(
  url: string,
  shows: (page: { status: number; html: string }) => boolean,
  since: number,
  withinMs = 1000,
): Promise<number> {
  for (;;) {
    const page = await view(url);
    const at = performance.now() - since;
    if (shows(page)) return at;
    if (at > withinMs) throw new Error(`${url} did not show the change within ${withinMs} ms (status ${page.status})`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
