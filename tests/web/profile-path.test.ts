import type { IncomingMessage } from 'node:http';
import { describe, expect, inject, it } from 'vitest';
import { insertIdentity } from '@/devstack/identities';
import { rewriteProfileView } from '@/lib/web/profile-path';
import { stackDatabase } from '../support/database';

/*
 * scripts/serve.ts rewrites a browser's view of /@tag to /profile/tag before Next.js routes it,
 * as next.config.ts's rewrite would: exactly the paths that rewrite takes, and the same answer.
 */

function rewritten(url: string, method = 'GET', headers: Record<string, string> = {}): string {
  const req = { url, method, headers } as unknown as IncomingMessage;
  rewriteProfileView(req);
  return req.url!;
}

describe('rewriteProfileView', () => {
  it.each([
    ['/@alice', '/profile/alice'],
    ['/@alice?utm=x&b=1', '/profile/alice?utm=x&b=1'],
    ['/@Alice', '/profile/Alice'], // the page reads the tag as the API does
    ['/@%40alice', '/profile/%40alice'],
  ])('%s → %s', (url, expected) => expect(rewritten(url)).toBe(expected));

  it.each([
    ['/@alice/', 'a trailing slash: Next.js redirects it to /@alice first'],
    ['/@alice/opengraph-image', 'a second segment'],
    ['/@', 'no tag'],
    ['/@?x=1', 'no tag, a query'],
    ['/profile/alice', 'already the page'],
    ['/x/@alice', 'not at the root'],
    ['/v1/identity/@alice', 'an API path'],
  ])('%s stays (%s)', (url) => expect(rewritten(url)).toBe(url));

  it('only document views: a form post and client-side navigations keep Next.js’s own rewrite', () => {
    expect(rewritten('/@alice', 'POST')).toBe('/@alice');
    expect(rewritten('/@alice', 'GET', { rsc: '1' })).toBe('/@alice');
    expect(rewritten('/@alice', 'GET', { 'next-router-prefetch': '1' })).toBe('/@alice');
    expect(rewritten('/@alice', 'HEAD')).toBe('/profile/alice');
  });
});

describe('the app answers a rewritten view as Next.js’s rewrite does', () => {
  const appUrl = inject('appUrl');
  const database = stackDatabase({ poolSize: 1 });

  it('the same page for /@tag, with a query, and /profile/tag; /@tag/ is still redirected to /@tag', async () => {
    const { tag } = await insertIdentity(database.db, { displayName: 'Rewritten Once' });
    const view = async (path: string) => {
      const res = await fetch(`${appUrl}${path}`, { redirect: 'manual' });
      return { status: res.status, location: res.headers.get('location'), body: await res.text() };
    };
    const page = await view(`/@${tag}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Rewritten Once');
    expect(await view(`/profile/${tag}`)).toEqual(page);
    expect(await view(`/@${tag}?ref=wallet`)).toEqual(page);
    const slash = await view(`/@${tag}/`);
    expect(slash.status).toBe(308);
    expect(slash.location).toBe(`/@${tag}`);
  });
});
