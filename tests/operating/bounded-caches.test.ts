import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDir } from '@/devstack/app';
import { insertIdentity } from '@/devstack/identities';
import { ownDatabase } from '../support/database';
import { ownApp } from '../support/app';

/*
 * Paths a stranger can vary grow neither disk nor memory: views of distinct missing tags, and
 * of their share images, write nothing to the build's cache folders (a missing tag is never
 * cached), and the server's memory stays flat. A process of its own: its memory is what is
 * under test.
 *
 * Memory: the same load on ONE missing tag first, so that the heap has grown to what this load
 * needs; then the distinct tags. RSS is sampled through each phase, and the peaks are compared:
 * what distinct paths add on top of the same load.
 *
 * What keeps it cheap with the same claim (MISSING distinct views of each kind, growth under
 * 50 MB): the server runs with its old generation capped at HEAP_MB (--max-old-space-size), far
 * below what it would take without a cap, but well above what this load needs. V8 then collects
 * before the heap can swing by tens of MB, so one pass on the one missing tag shows the load's
 * size (a second pass was needed without the cap), and a cache that grew with every distinct
 * path would fail fast: past the cap the server dies and the views stop answering 404.
 */

const MISSING = 2000;
const CONCURRENCY = 8;
const HEAP_MB = 256;
const database = ownDatabase({ poolSize: 1 });
const app = ownApp(
  { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=${HEAP_MB}`.trim() },
  { database },
);

/** Every file under the build folder (the page cache is `cache/` and `server/app/` in it). */
function filesUnder(dir: string): Set<string> {
  return new Set(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name)),
  );
}

function rssBytes(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (!kb) throw new Error(`no VmRSS for ${pid}`);
  return Number(kb) * 1024;
}

/** The highest RSS of the server while `work` runs (sampled every 50 ms). */
async function peakRss<T>(work: () => Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = rssBytes(app().pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssBytes(app().pid))), 50);
  try {
    const result = await work();
    return { result, peak: Math.max(peak, rssBytes(app().pid)) };
  } finally {
    clearInterval(timer);
  }
}

/** GETs each path (CONCURRENCY at a time) and returns the statuses seen. */
async function getAll(paths: string[]): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < paths.length) {
        const res = await fetch(`${app().url}${paths[next++]}`, { headers: { accept: 'text/html' } });
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    }),
  );
  return statuses;
}

describe('bounded caches', () => {
  it(`${MISSING} views of distinct missing tags and of their OG images add no file to the build folder; RSS grows < 50 MB`, async () => {
    const existing = (await insertIdentity(database.db, { displayName: 'Warm Up' })).tag;
    await getAll([`/@${existing}`, `/profile/${existing}/opengraph-image`]);
    const filesBefore = filesUnder(buildDir());
    const same = await peakRss(async () => ({
      pages: await getAll(Array.from({ length: MISSING }, () => '/@zz_always_the_same')),
      images: await getAll(Array.from({ length: MISSING }, () => '/profile/zz_always_the_same/opengraph-image')),
    }));
    expect(same.result.pages).toEqual(new Map([[404, MISSING]]));
    expect(same.result.images).toEqual(new Map([[404, MISSING]]));

    const run = `zz${Date.now().toString(36)}`;
    const distinct = await peakRss(async () => ({
      pages: await getAll(Array.from({ length: MISSING }, (_, i) => `/@${run}_${i}`)),
      images: await getAll(Array.from({ length: MISSING }, (_, i) => `/profile/${run}_${i}/opengraph-image`)),
    }));
    expect(distinct.result.pages).toEqual(new Map([[404, MISSING]]));
    expect(distinct.result.images).toEqual(new Map([[404, MISSING]]));

    const added = [...filesUnder(buildDir())].filter((file) => !filesBefore.has(file));
    expect(added).toEqual([]);
    const grownMb = (distinct.peak - same.peak) / 2 ** 20;
    console.log(
      `RSS peak ${(same.peak / 2 ** 20).toFixed(0)} MB over ${2 * MISSING} views of one missing tag, ${(distinct.peak / 2 ** 20).toFixed(0)} MB over ${2 * MISSING} distinct ones (${grownMb.toFixed(1)} MB more)`,
    );
    expect(grownMb).toBeLessThan(50);
  }, 300_000); // 8,000 requests on a shared 2-core machine
});
