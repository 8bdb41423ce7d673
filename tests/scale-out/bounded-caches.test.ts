import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildDir, startApp, type RunningApp } from '@/devstack/app';
import { insertIdentity } from '@/devstack/identities';
import { ownDatabase } from '../support/database';

/*
 * Paths a stranger can vary grow neither disk nor memory: views of distinct missing tags, and
 * of their share images, write nothing to the build's cache folders (a missing tag is never
 * cached), and the server's memory stays flat.
 */

const MISSING = 2000;
const CONCURRENCY = 8;
const database = ownDatabase({ poolSize: 1 });
let app: RunningApp;

beforeAll(async () => {
  app = await startApp({ DATABASE_URL: database.url, SOLANA_RPC_URL: inject('rpcUrl') });
});
afterAll(() => app?.stop());

/** Every file under the build folder (the page cache is `cache/` and `server/app/` in it). */
function filesUnder(dir: string): Set<string> {
  return new Set(readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name)));
}

function rssBytes(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (!kb) throw new Error(`no VmRSS for ${pid}`);
  return Number(kb) * 1024;
}

/** GETs each path (CONCURRENCY at a time) and returns the statuses seen. */
async function getAll(paths: string[]): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < paths.length) {
        const res = await fetch(`${app.url}${paths[next++]}`, { headers: { accept: 'text/html' } });
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
    // Warm-up: every route involved has run (modules loaded, pools open) before the baseline.
    const warm = Array.from({ length: 50 }, (_, i) => [`/@${existing}`, `/profile/${existing}/opengraph-image`, `/@zz_warm_${i}`, `/profile/zz_warm_${i}/opengraph-image`]).flat();
    await getAll(warm);
    const filesBefore = filesUnder(buildDir());
    const rssBefore = rssBytes(app.pid);

    const run = `zz${Date.now().toString(36)}`;
    const pages = await getAll(Array.from({ length: MISSING }, (_, i) => `/@${run}_${i}`));
    const images = await getAll(Array.from({ length: MISSING }, (_, i) => `/profile/${run}_${i}/opengraph-image`));
    expect(pages).toEqual(new Map([[404, MISSING]]));
    expect(images).toEqual(new Map([[404, MISSING]]));

    const added = [...filesUnder(buildDir())].filter((file) => !filesBefore.has(file));
    expect(added).toEqual([]);
    const grownMb = (rssBytes(app.pid) - rssBefore) / 2 ** 20;
    console.log(`RSS before ${(rssBefore / 2 ** 20).toFixed(0)} MB, grown by ${grownMb.toFixed(1)} MB after ${2 * MISSING} requests`);
    expect(grownMb).toBeLessThan(50);
  });
});
