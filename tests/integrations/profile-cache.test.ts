import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_AUTH_SECRET } from '@/devstack/app';
import { identities } from '@/lib/db/schema';
import { REVALIDATE_PATH, revalidationToken } from '@/lib/feed/profile-pages';
import { admin, runAdmin } from '../support/admin-cli';
import { signIn } from '../support/sign-in';
import { appUrl, closeTestDb, patchIdentity, requireApp, seedIdentity, testDb, viewProfile } from './support';

/*
 * /@tag comes out of Next's cache (no database read per view) and every change expires it:
 * the first view after a change's response shows the change.
 */

beforeAll(requireApp);
afterAll(closeTestDb);

/** Writes the mirror behind the app's back: no event, no expiry (what a view must not notice). */
async function renameBehindTheAppsBack(tag: string, displayName: string): Promise<void> {
  const { db } = await testDb();
  await db.update(identities).set({ displayName }).where(eq(identities.tag, tag));
}

describe('cached /@tag', () => {
  it('is served from the cache: a change made behind the app’s back does not show', async () => {
    const row = await seedIdentity({ displayName: 'Cached Name' });
    expect((await viewProfile(`@${row.tag}`)).html).toContain('Cached Name');
    await renameBehindTheAppsBack(row.tag, 'Sneaky Name');
    for (let i = 0; i < 3; i++) {
      const view = await viewProfile(`@${row.tag}`);
      expect(view.status).toBe(200);
      expect(view.html).toContain('Cached Name');
      expect(view.html).not.toContain('Sneaky Name');
    }
  });

  it('a cached view keeps the security headers: a CSP allowing exactly its inline scripts, by hash', async () => {
    const row = await seedIdentity({ displayName: 'Hashed Scripts' });
    await viewProfile(`@${row.tag}`);
    const cached = await viewProfile(`@${row.tag}`);
    expect(cached.headers.get('x-nextjs-cache')).toBe('HIT');
    const csp = cached.headers.get('content-security-policy') ?? '';
    const scriptSrc = /(?:^|;\s*)script-src ([^;]*)/.exec(csp)?.[1]?.split(' ') ?? [];
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(scriptSrc.some((s) => s.startsWith("'nonce-"))).toBe(false);
    const inline = [...cached.html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(([, attrs]) => !/\ssrc=/.test(attrs!) && !/type="application\/(ld\+)?json"/.test(attrs!));
    expect(inline.length).toBeGreaterThan(0);
    for (const [, , text] of inline) expect(scriptSrc).toContain(`'sha256-${createHash('sha256').update(text!).digest('base64')}'`);
    expect(cached.headers.get('x-frame-options')).toBe('DENY');
  });

  it('after a PATCH, the next view shows the change (every spelling of the tag)', async () => {
    const { token, keypair } = await signIn(appUrl);
    const row = await seedIdentity({ owner: keypair.publicKey, wallet: keypair.publicKey, displayName: 'Before Patch' });
    expect((await viewProfile(`@${row.tag}`)).html).toContain('Before Patch');
    expect((await viewProfile(`@${row.tag.toUpperCase()}`)).html).toContain('Before Patch');

    expect((await patchIdentity(row.tag, { displayName: 'After Patch' }, token)).status).toBe(200);
    for (const spelling of [`@${row.tag}`, `@${row.tag.toUpperCase()}`]) {
      const view = await viewProfile(spelling);
      expect(view.html).toContain('After Patch');
      expect(view.html).not.toContain('Before Patch');
    }
  });

  it('moderation from the admin command (another process) reaches the cache: block → the next view is the 404', async () => {
    const row = await seedIdentity({ displayName: 'Soon Blocked' });
    expect((await viewProfile(`@${row.tag}`)).status).toBe(200);
    const blocked = await admin('block', row.tag);
    expect(blocked.stderr).toBe('');
    expect(blocked.code).toBe(0);
    const view = await viewProfile(`@${row.tag}`);
    expect(view.status).toBe(404);
    expect(view.html).not.toContain('Soon Blocked');

    expect((await admin('unblock', row.tag)).code).toBe(0);
    expect((await viewProfile(`@${row.tag}`)).html).toContain('Soon Blocked');
  });

  it('a tag first viewed as missing shows up once it is created (the 404 is expired too)', async () => {
    const row = await seedIdentity({ displayName: 'Late Arrival', status: 'blocked' });
    expect((await viewProfile(`@${row.tag}`)).status).toBe(404);
    expect((await admin('unblock', row.tag)).code).toBe(0);
    expect((await viewProfile(`@${row.tag}`)).html).toContain('Late Arrival');
  });

  it('the admin command says so (exit 3) when it cannot reach the app; the change is saved', async () => {
    const row = await seedIdentity();
    const child = await runAdmin(['verify', row.tag], 'http://127.0.0.1:9');
    expect(child.code).toBe(3);
    expect(child.stderr).toMatch(/^warning: the change is saved, but the cached page of @t_\w+ was not refreshed: could not reach the app at http:\/\/127\.0\.0\.1:9/);
  });

  it('POST /api/internal/revalidate takes only the app’s own token', async () => {
    const call = (authorization: string | undefined) =>
      fetch(`${appUrl}${REVALIDATE_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify({ tags: ['alice'] }),
      });
    for (const authorization of [undefined, 'Bearer nope', `Bearer ${revalidationToken('another-secret-of-at-least-32-chars!!')}`]) {
      const res = await call(authorization);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: { code: 'unauthorized', message: 'This route is for the service itself.' } });
    }
    const ok = await call(`Bearer ${revalidationToken(TEST_AUTH_SECRET)}`);
    expect([ok.status, await ok.json()]).toEqual([200, { revalidated: ['@alice'] }]);
  });
});
