import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OTHER_ROUTE, pathnameOf, ROUTE_PATTERNS, routeLabel } from '@/lib/observability/route-label';

/**
 * Every route handler file outside app/v1 (its routes declare their paths) that is observed
 * (through withApi, observeRequest or cronRouteHandlers, in the file or in the handlers.ts beside it that builds
 * its handlers), as a pattern (`[x]` → `{x}`); catch-alls left out.
 */
function observedRouteFiles(dir = path.join(process.cwd(), 'app'), prefix = ''): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!prefix && entry.name === 'v1') continue;
      const segment = /^\(.*\)$/.test(entry.name) ? '' : `/${entry.name.replace(/^\[(\w+)\]$/, '{$1}')}`;
      found.push(...observedRouteFiles(path.join(dir, entry.name), prefix + segment));
    } else if (/^route\.(ts|tsx|js)$/.test(entry.name) && !prefix.includes('[')) {
      const handlers = path.join(dir, 'handlers.ts');
      const source = [entry.name, ...(existsSync(handlers) ? ['handlers.ts'] : [])]
        .map((name) => readFileSync(path.join(dir, name), 'utf8'))
        .join('\n');
      if (/\b(withApi|observeRequest|cronRouteHandlers)\b/.test(source)) found.push(prefix);
    }
  }
  return found;
}

describe('route labels', () => {
  it('list every observed route handler outside app/v1 and nothing else (add a new one to lib/observability/route-label.ts)', () => {
    expect([...ROUTE_PATTERNS].sort()).toEqual(observedRouteFiles().sort());
  });

  it.each([
    ['/api/avatar/alice', '/api/avatar/{tag}'],
    ['/api/actions/pay/alice', '/api/actions/pay/{tag}'],
    ['/api/indexer/status', '/api/indexer/status'],
    ['/api/health', '/api/health'],
    ['/api/health/', '/api/health'],
    ['/v1/nothing/here', OTHER_ROUTE],
    ['/v1/identity/', OTHER_ROUTE],
    ['/', OTHER_ROUTE],
  ])('%s → %s', (pathname, label) => {
    expect(routeLabel(pathname)).toBe(label);
  });

  it('take the path of a URL without its query or fragment', () => {
    expect(pathnameOf('http://127.0.0.1:3000/v1/identity/alice?token=x#y')).toBe('/v1/identity/alice');
    expect(pathnameOf('https://tags.example')).toBe('/');
  });
});
