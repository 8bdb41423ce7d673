import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * Every route handler file is rendered per request (`dynamic = 'force-dynamic'`). They all
 * are anyway (each reads its request), but a route left at 'auto' gets its request from
 * Next.js wrapped in a proxy that reports every read of headers, url or body, to find routes
 * that could be rendered once: each read through it costs, on every request (about
 * 2–3 µs, bench/results/2026-11-26.md). Said as a literal in each file, as Next.js reads it.
 */
const routeFiles = (): string[] =>
  (readdirSync('app', { recursive: true }) as string[])
    .filter((file) => /(^|\/)route\.(ts|tsx|js)$/.test(file))
    .map((file) => path.join('app', file));

describe('route handler files', () => {
  it("are all rendered per request, so Next.js hands them the request itself (export const dynamic = 'force-dynamic')", () => {
    const files = routeFiles();
    expect(files.length).toBeGreaterThan(30);
    const notDynamic = files.filter(
      (file) => !/^export const dynamic = 'force-dynamic';$/m.test(readFileSync(file, 'utf8')),
    );
    expect(notDynamic).toEqual([]);
  });
});
