import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * Every route handler file is rendered per request (`dynamic = 'force-dynamic'`). They all
 * are anyway (each reads its request), but a route left at 'auto' gets its request from
 * Next.js wrapped in a proxy that reports every read of headers, url or body, to find routes
 * that could be rendered once: each read through it costs, on every request (README
 * "Benchmarks", observability). Said as a literal in each file, as Next.js reads it.
 */
function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return /^route\.(ts|tsx|js)$/.test(entry.name) ? [full] : [];
  });
}

describe('route handler files', () => {
  it("are all rendered per request, so Next.js hands them the request itself (export const dynamic = 'force-dynamic')", () => {
    const files = routeFiles('app');
    expect(files.length).toBeGreaterThan(30);
    const notDynamic = files.filter((file) => !/^export const dynamic = 'force-dynamic';$/m.test(readFileSync(file, 'utf8')));
    expect(notDynamic).toEqual([]);
  });
});
