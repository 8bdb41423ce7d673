import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDir } from '@/devstack/app';
import { insertIdentity } from '@/devstack/identities';
import { ownDatabase } from '../support/database';
import { ownApp } from '../support/app';
import { INSPECT_OPTION, inspect, type HeldMemory } from '../support/inspector';

/*
 * Paths a stranger can vary grow neither disk nor memory: views of distinct missing tags, and
 * of their share images, write nothing to the build's cache folders (a missing tag is never
 * cached), and the server keeps nothing per path. A process of its own: its memory is what is
 * under test.
 *
 * Memory is read through the server's inspector (../support/inspector.ts): a full collection,
 * then what its JavaScript still holds, in the V8 heap and in Buffers outside it. RSS peaks
 * swing by tens of MB and needed 8,000 requests and a 50 MB allowance to show anything. In this
 * test's shape (warm-up, reading, one round of views, reading) this growth measured between
 * −1.6 and +1.5 MB over eleven runs of code that keeps nothing: code compiled late adds, V8
 * dropping bytecode left unused takes away (up to 3 MB after further rounds).
 *
 * WARM_UP views of distinct missing tags of each kind come first, so that the code those views
 * run is loaded and compiled (about 2.5 MB, once) before the first reading; then DISTINCT views
 * of new distinct tags of each kind, and the second reading. What the 2 × DISTINCT = 2,000 new
 * paths may add, GROWTH_LIMIT_MB, allows for that noise and for Next.js's own cache of
 * file-system lookups, which keeps ~0.2 KB per path up to a fixed 8 MB (FS_LRU_MAX_SIZE in
 * node_modules/next/dist/server/lib/router-utils/filesystem.js). A cache of ours on one kind
 * alone that kept ~5 KB per path (a page's HTML, a share image's PNG) adds ~4.9 MB and fails
 * even at the lowest swing measured: a 5 KB string kept per missing-tag page measured 5.9 MB.
 */

const WARM_UP = 250;
const DISTINCT = 1000;
const GROWTH_LIMIT_MB = 3;
const CONCURRENCY = 8;
const database = ownDatabase({ poolSize: 1 });
const app = ownApp({ NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} ${INSPECT_OPTION}`.trim() }, { database });

/** Every file under the build folder (the page cache is `cache/` and `server/app/` in it). */
function filesUnder(dir: string): Set<string> {
  return new Set(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name)),
  );
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

/** `count` views of distinct missing tags named after `prefix`: their pages, then their share images. */
async function viewMissing(prefix: string, count: number) {
  const tags = Array.from({ length: count }, (_, i) => `${prefix}_${i}`);
  return {
    pages: await getAll(tags.map((tag) => `/@${tag}`)),
    images: await getAll(tags.map((tag) => `/profile/${tag}/opengraph-image`)),
  };
}

const heldBytes = (memory: HeldMemory) => memory.heapUsed + memory.external;
const inMb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

describe('bounded caches', () => {
  it(`${DISTINCT} views of distinct missing tags and of their OG images add no file to the build folder; the heap grows < ${GROWTH_LIMIT_MB} MB`, async () => {
    const inspector = await inspect(app());
    try {
      const existing = (await insertIdentity(database.db, { displayName: 'Warm Up' })).tag;
      await getAll([`/@${existing}`, `/profile/${existing}/opengraph-image`]);
      const filesBefore = filesUnder(buildDir());
      const run = `zz${Date.now().toString(36)}`;
      const warmUp = await viewMissing(`${run}w`, WARM_UP);
      expect(warmUp.pages).toEqual(new Map([[404, WARM_UP]]));
      expect(warmUp.images).toEqual(new Map([[404, WARM_UP]]));
      const before = await inspector.heldAfterFullCollection();

      const distinct = await viewMissing(run, DISTINCT);
      expect(distinct.pages).toEqual(new Map([[404, DISTINCT]]));
      expect(distinct.images).toEqual(new Map([[404, DISTINCT]]));
      const after = await inspector.heldAfterFullCollection();

      const added = [...filesUnder(buildDir())].filter((file) => !filesBefore.has(file));
      expect(added).toEqual([]);
      const grownBytes = heldBytes(after) - heldBytes(before);
      console.log(
        `held after a full collection: ${inMb(heldBytes(before))} MB (heap ${inMb(before.heapUsed)}, external ${inMb(before.external)}) after the warm-up, ` +
          `${inMb(heldBytes(after))} MB (heap ${inMb(after.heapUsed)}, external ${inMb(after.external)}) after ${2 * DISTINCT} distinct views: ` +
          `${(grownBytes / 2 ** 20).toFixed(2)} MB grown`,
      );
      expect(grownBytes / 2 ** 20).toBeLessThan(GROWTH_LIMIT_MB);
    } finally {
      await inspector.close();
    }
  }, 180_000); // 2,500 requests and two full collections on a shared 2-core machine
});
