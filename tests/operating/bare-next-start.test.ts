import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startBareNext, type RunningApp } from '@/devstack/app';
import { insertIdentity } from '@/devstack/identities';
import { ownDatabase } from '../support/database';
import { startCountingProxy, type CountingProxy } from './counting-proxy';
import { expectStrictPageHeaders } from '../support/page-headers';
import { view } from './support';

/*
 * Vercel's shape: a bare `next start` (VERCEL=1) with no server of ours in front, behind an
 * edge proxy that sets `x-vercel-forwarded-for`. One view of a page is one request into the
 * app (no page fetches itself), and every page carries the strict CSP.
 */

const VIEWS = 5;
const database = ownDatabase({ poolSize: 1 });
let proxy: CountingProxy;
let app: RunningApp;
let tag: string;

beforeAll(async () => {
  proxy = await startCountingProxy();
  app = await startBareNext({ DATABASE_URL: database.url, SOLANA_RPC_URL: inject('rpcUrl'), APP_URL: proxy.url });
  proxy.target(app.url);
  tag = (await insertIdentity(database.db, { displayName: 'Edge Viewed' })).tag;
});
afterAll(async () => {
  await app?.stop();
  await proxy?.close();
});

describe('a bare `next start` behind an edge proxy', () => {
  it.each([['/@tag'], ['/'], ['/register']])(
    `%s: ${VIEWS} views reach the app ${VIEWS} times, each with the strict CSP`,
    async (shape) => {
      const path = shape === '/@tag' ? `/@${tag}` : shape;
      proxy.reset();
      const nonces = new Set<string>();
      for (let i = 0; i < VIEWS; i++) {
        const page = await view(`${proxy.url}${path}`);
        expect(page.status, path).toBe(200);
        expectStrictPageHeaders(page, path);
        if (shape === '/@tag') expect(page.html).toContain('Edge Viewed');
        const nonce = /'nonce-([^']+)'/.exec(page.headers.get('content-security-policy') ?? '')?.[1];
        if (nonce) nonces.add(nonce);
      }
      expect(proxy.counts()).toEqual(new Map([[path, VIEWS]]));
      // The App Router's pages get a fresh nonce per view; /@tag needs none.
      expect(nonces.size).toBe(shape === '/@tag' ? 0 : VIEWS);
    },
  );

  it('the not-found page too (a missing tag, and a path no page serves)', async () => {
    for (const path of ['/@nobody_here_at_all', '/no/such/page']) {
      proxy.reset();
      const page = await view(`${proxy.url}${path}`);
      expect(page.status, path).toBe(404);
      expectStrictPageHeaders(page, path);
      expect(page.html).toContain('Nothing here');
      expect(proxy.counts()).toEqual(new Map([[path, 1]]));
    }
  });
});
