import { describe, expect, it } from 'vitest';
import { v1Routes } from '@/app/v1/v1-routes';
import {
  EVENT_LOOP_WINDOW_MS,
  eventLoopUtilization,
  HEAVY_SHARE_WINDOW_MS,
  noteHeavyRequest,
} from '@/lib/http/heavy-work';
import { HEAVY_REQUESTS } from '@/lib/http/heavy-requests';
import { heavyRequestKind, shedAtTheDoor } from '@/lib/http/shed-at-the-door';
import { readResponse } from '../support/http';

/*
 * `npm start`'s server sheds heavy requests before Next.js sees them while the event loop is
 * past its bound (lib/http/shed-at-the-door.ts): the same 503 the routes answer, at the cost of
 * node:http rather than of a request through Next.js.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const OVERLOADED = { error: { code: 'overloaded', message: 'The service is busy; try again shortly.' } };
const bound = { concurrency: 100, maxEventLoopUtilization: 0.5, bytesPerSecond: Infinity };

/** Holds the loop for two of the meter's windows, then lets its tick read them. */
async function busyLoop() {
  const until = performance.now() + EVENT_LOOP_WINDOW_MS * 2;
  while (performance.now() < until);
  await sleep(5);
  expect(eventLoopUtilization()).toBeGreaterThan(bound.maxEventLoopUtilization);
}

describe('the heavy requests', () => {
  it.each([
    ['GET', '/v1/events?after=0-0&limit=1000', 'feed'],
    ['HEAD', '/v1/events', 'feed'],
    ['GET', '/profile/alice/opengraph-image', 'og image'],
    ['POST', '/v1/resolve', 'resolve batch'],
    ['POST', '/v1/reverse', 'reverse batch'],
  ])('%s %s is heavy work of kind %s', (method, target, kind) => {
    expect(heavyRequestKind(method, target)).toBe(kind);
  });

  it.each([
    ['GET', '/api/health'],
    ['GET', '/v1/resolve/alice'],
    ['GET', '/v1/reverse/11111111111111111111111111111111'],
    ['POST', '/v1/events'],
    ['GET', '/@alice'],
    ['GET', '/v1/events/extra'],
    ['GET', '/profile/alice/opengraph-image/x'],
  ])('%s %s is not', (method, target) => {
    expect(heavyRequestKind(method, target)).toBeNull();
  });
  // Every route that bounds its work as heavy is listed at the door: the lint rule
  // house/heavy-work-is-at-the-door (scripts/lint/house-rules.mjs, tests/layering/house-rules.test.ts).
});

describe('shedding at the door', () => {
  it('while the loop is past its bound: 503 overloaded with Retry-After in the envelope (CORS on /v1); other requests pass', async () => {
    eventLoopUtilization(); // starts the meter
    await busyLoop();
    const feed = await readResponse(shedAtTheDoor('GET', '/v1/events?after=0-0', bound)!);
    expect([feed.status, feed.headers.get('retry-after'), feed.json]).toEqual([503, '1', OVERLOADED]);
    expect(feed.headers.get('access-control-allow-origin')).toBe('*');
    expect(feed.headers.get('cache-control')).toBe('no-store');
    const image = await readResponse(shedAtTheDoor('GET', '/profile/alice/opengraph-image', bound)!);
    expect([image.status, image.json, image.headers.get('access-control-allow-origin')]).toEqual([
      503,
      OVERLOADED,
      null,
    ]);
    expect(shedAtTheDoor('GET', '/api/health', bound)).toBeNull();
    expect(shedAtTheDoor('GET', '/v1/resolve/alice', bound)).toBeNull();
    // The same moment with the bound off (1): passed on to the route.
    expect(shedAtTheDoor('GET', '/v1/events', { ...bound, maxEventLoopUtilization: 1 })).toBeNull();
  });

  it('once the loop has room, heavy requests pass on to their routes', async () => {
    await busyLoop();
    expect(shedAtTheDoor('GET', '/v1/events', bound)).not.toBeNull();
    await sleep(EVENT_LOOP_WINDOW_MS * 3);
    expect(eventLoopUtilization()).toBeLessThan(bound.maxEventLoopUtilization);
    expect(shedAtTheDoor('GET', '/v1/events', bound)).toBeNull();
    expect(shedAtTheDoor('POST', '/v1/resolve', bound)).toBeNull();
  });
});

describe('one table of heavy requests, for the door and the routes', () => {
  it('every /v1 operation that declares `heavy` is in the table under its kind, and every /v1 entry of the table is declared so', () => {
    const sample = (template: string) => template.replace(/\{\w+\}/g, 'x');
    const declared = v1Routes().flatMap(({ path: route, operations }) =>
      Object.entries(operations)
        .filter(([, op]) => op.heavy)
        .map(([method, op]) => `${method} ${route} ${op.heavy}`),
    );
    const tabled = HEAVY_REQUESTS.filter((h) => h.path.startsWith('/v1/')).map(
      (h) => `${h.methods.find((m) => m !== 'HEAD')} ${h.path} ${h.kind}`,
    );
    expect(declared.sort()).toEqual(tabled.sort());
    for (const entry of declared) {
      const [method, route, ...kind] = entry.split(' ');
      expect(heavyRequestKind(method, sample(route!))).toBe(kind.join(' '));
    }
  });
});

describe('fair shedding: the heaviest client first', () => {
  const busy = { concurrency: 100, maxEventLoopUtilization: 0.5, bytesPerSecond: Infinity };

  it('while the loop is busy: 429 with Retry-After for the client holding most heavy work, the others pass', async () => {
    eventLoopUtilization();
    for (let i = 0; i < 40; i++) noteHeavyRequest('198.51.100.7'); // one reader's burst of pages
    noteHeavyRequest('198.51.100.8');
    await busyLoop();
    const reader = await readResponse(shedAtTheDoor('GET', '/v1/events', busy, () => '198.51.100.7')!);
    expect([
      reader.status,
      reader.headers.get('retry-after'),
      (reader.json as { error: { code: string } }).error.code,
    ]).toEqual([429, '2', 'rate_limited']);
    expect(reader.headers.get('access-control-allow-origin')).toBe('*');
    // Everyone else's heavy requests go on: the load is that one client's doing.
    expect(shedAtTheDoor('GET', '/v1/events', busy, () => '198.51.100.8')).toBeNull();
    expect(shedAtTheDoor('POST', '/v1/resolve', busy, () => '198.51.100.9')).toBeNull();
    expect(shedAtTheDoor('GET', '/profile/alice/opengraph-image', busy)).toBeNull();
  });

  it('when the load is no one client’s doing, every heavy request is shed with 503 as before', async () => {
    await sleep(HEAVY_SHARE_WINDOW_MS + 50); // the burst above has left the window
    for (const client of ['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.4'])
      for (let i = 0; i < 3; i++) noteHeavyRequest(client);
    await busyLoop();
    for (const client of ['203.0.113.1', '203.0.113.5']) {
      const res = await readResponse(shedAtTheDoor('GET', '/v1/events', bound, () => client)!);
      expect([res.status, res.json]).toEqual([503, OVERLOADED]);
    }
  });
});
