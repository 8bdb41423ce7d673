import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENT_LOOP_WINDOW_MS, eventLoopUtilization } from '@/lib/http/heavy-work';
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

  it('every route that bounds its work as heavy is a heavy request at the door', () => {
    // The routes under app/ that call withHeavyWork or declare `heavy:`, as the paths they serve.
    const routes = (readdirSync('app', { recursive: true }) as string[])
      .filter((file) => /(^|\/)route\.tsx?$/.test(file))
      .filter((file) => /withHeavyWork\(|\bheavy: '/.test(readFileSync(path.join('app', file), 'utf8')))
      .map((file) => `/${path.dirname(file)}`.replace(/\[[^\]]+\]/g, 'x'));
    expect(routes.length).toBeGreaterThanOrEqual(4);
    for (const route of routes) {
      const heavy = ['GET', 'POST'].some((method) => heavyRequestKind(method, route));
      expect({ route, heavy }).toEqual({ route, heavy: true });
    }
  });
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
