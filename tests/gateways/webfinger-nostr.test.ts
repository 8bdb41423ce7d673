import { desc, eq } from 'drizzle-orm';
import { nip19 } from 'nostr-tools';
import { queryProfile, useFetchImplementation } from 'nostr-tools/nip05';
import WebFinger from 'webfinger.js';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { insertIdentity, randomTag } from '@/devstack/identities';
import { identityEvents } from '@/lib/db/schema';
import { profilePageResponse } from '@/lib/web/server/profile-page';
import { heldInProcessApp, LISTENER_ORIGIN } from '../support/in-process';
import { newKeypair } from '../support/keypair';
import { signIn } from '../support/sign-in';

/*
 * The two other doors (DESIGN.md "Reach beyond Solana clients"), each found by the client its
 * ecosystem uses, pointed at the app in this process: webfinger.js as the fediverse looks people
 * up, nostr-tools' NIP-05 query as a Nostr client verifies `tag@host`. And the Nostr key itself:
 * a profile field like the others (PATCH, the identity object, the feed, /@tag).
 */

// The app's public origin is its own listener: both protocols name the host in what they look up.
const app = heldInProcessApp({ APP_URL: LISTENER_ORIGIN });
const host = () => new URL(app().url).host;

const KEY_HEX = '3bf0c63fcb93463407af97a5e5ee64fa883d107ef9e558472c4eb9aaaefa459d';
const NPUB = nip19.npubEncode(KEY_HEX);

beforeAll(() => {
  // NIP-05 names a domain without a port and always asks over https: send it to the listener.
  useFetchImplementation((url: string, init?: RequestInit) =>
    fetch(url.replace(/^https:\/\/127\.0\.0\.1\//, `${app().url}/`), init),
  );
});

async function patch(tag: string, token: string, body: unknown) {
  const res = await app().fetch(`/v1/identity/${tag}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function ownTag() {
  const owner = newKeypair();
  const row = await insertIdentity(app().db, { owner: owner.publicKey, wallet: owner.publicKey });
  const { token } = await signIn(app().url, owner);
  return { tag: row.tag, token };
}

describe('the Nostr key, a profile field', () => {
  it('takes an npub or 64 hex digits, stores hex, shows it in the identity, the resolve answer and the feed; null clears it', async () => {
    const { tag, token } = await ownTag();
    const set = await patch(tag, token, { nostr: NPUB });
    expect([set.status, set.body.nostr]).toEqual([200, KEY_HEX]);
    expect((await (await app().fetch(`/v1/identity/${tag}`)).json()).nostr).toBe(KEY_HEX);
    expect((await (await app().fetch(`/v1/resolve/${tag}`)).json()).nostr).toBe(KEY_HEX);
    const [event] = await app()
      .db.select()
      .from(identityEvents)
      .where(eq(identityEvents.tag, tag))
      .orderBy(desc(identityEvents.id))
      .limit(1);
    expect((event!.identity as { nostr: string }).nostr).toBe(KEY_HEX);

    expect((await patch(tag, token, { nostr: KEY_HEX.toUpperCase() })).body.nostr).toBe(KEY_HEX);
    const cleared = await patch(tag, token, { nostr: null });
    expect([cleared.status, cleared.body.nostr]).toEqual([200, null]);
    expect((await patch(tag, token, { nostr: '' })).body.nostr).toBeNull();
  });

  it.each([
    ['an npub with a broken checksum', `${NPUB.slice(0, -1)}${NPUB.endsWith('q') ? 'p' : 'q'}`],
    ['a private key (nsec)', nip19.nsecEncode(new Uint8Array(32).fill(7))],
    ['63 hex digits', KEY_HEX.slice(1)],
    ['a number', 42],
  ])('refuses %s, naming the field', async (_name, nostr) => {
    const { tag, token } = await ownTag();
    const res = await patch(tag, token, { nostr });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: {
        code: 'invalid_request',
        message:
          typeof nostr === 'number'
            ? '`nostr`: Invalid input: expected string, received number'
            : '`nostr`: must be a Nostr public key: npub1… or 64 hex digits',
      },
    });
  });

  it('shows on /@tag as the npub Nostr clients show', async () => {
    const row = await insertIdentity(app().db, { nostr: KEY_HEX });
    const page = await profilePageResponse(new Request(`${app().url}/@${row.tag}`), `@${row.tag}`, app().services);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(NPUB);
  });
});

describe('NIP-05: /.well-known/nostr.json', () => {
  it("nostr-tools' queryProfile finds a tag's key; a tag without a key, an unknown and a blocked tag have none", async () => {
    const row = await insertIdentity(app().db, { nostr: KEY_HEX });
    expect(await queryProfile(`${row.tag}@127.0.0.1`)).toEqual({ pubkey: KEY_HEX, relays: undefined });
    const keyless = await insertIdentity(app().db);
    const blocked = await insertIdentity(app().db, { nostr: KEY_HEX, status: 'blocked' });
    for (const tag of [keyless.tag, blocked.tag, randomTag()])
      expect(await queryProfile(`${tag}@127.0.0.1`), tag).toBeNull();
  });

  it('answers {"names": {"<tag>": "<hex>"}} with CORS open, an ETag, and never a redirect', async () => {
    const row = await insertIdentity(app().db, { nostr: KEY_HEX });
    const res = await fetch(`${app().url}/.well-known/nostr.json?name=${row.tag}`, { redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ names: { [row.tag]: KEY_HEX } });
    const again = await fetch(`${app().url}/.well-known/nostr.json?name=${row.tag}`, {
      headers: { 'if-none-match': res.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
    const none = await fetch(`${app().url}/.well-known/nostr.json`, { redirect: 'manual' });
    expect([none.status, await none.json()]).toEqual([200, { names: {} }]);
  });
});

describe('WebFinger: /.well-known/webfinger', () => {
  it('webfinger.js finds the profile page and the avatar of a tag', async () => {
    const row = await insertIdentity(app().db, { avatar: 'https://example.com/alice.png' });
    const webfinger = new WebFinger({ tls_only: false, allow_private_addresses: true, uri_fallback: false });
    const found = await webfinger.lookup(`${row.tag}@${host()}`);
    expect(found.object.subject).toBe(`acct:${row.tag}@${host()}`);
    expect(found.idx.links.profile?.[0]?.href).toBe(`${app().url}/@${row.tag}`);
    expect(found.idx.links.avatar?.[0]?.href).toBe('https://example.com/alice.png');
  });

  it('answers the JRD as application/jrd+json with CORS open, for acct: and for the profile page', async () => {
    const row = await insertIdentity(app().db);
    const page = `${app().url}/@${row.tag}`;
    const expected = {
      subject: `acct:${row.tag}@${host()}`,
      aliases: [page],
      links: [{ rel: 'http://webfinger.net/rel/profile-page', type: 'text/html', href: page }],
    };
    for (const resource of [`acct:${row.tag}@${host()}`, `acct:@${row.tag.toUpperCase()}@${host()}`, page]) {
      const res = await fetch(`${app().url}/.well-known/webfinger?resource=${encodeURIComponent(resource)}`);
      expect(res.status, resource).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/jrd+json');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(await res.json()).toEqual(expected);
    }
  });

  it('404 for an unknown or blocked tag and for another host; 400 without a resource', async () => {
    const blocked = await insertIdentity(app().db, { status: 'blocked' });
    const live = await insertIdentity(app().db);
    for (const resource of [
      `acct:${randomTag()}@${host()}`,
      `acct:${blocked.tag}@${host()}`,
      `acct:${live.tag}@example.com`,
    ]) {
      const res = await fetch(`${app().url}/.well-known/webfinger?resource=${encodeURIComponent(resource)}`);
      expect([res.status, await res.json()], resource).toEqual([
        404,
        { error: { code: 'not_found', message: 'No identity with this tag.' } },
      ]);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    }
    const bare = await fetch(`${app().url}/.well-known/webfinger`);
    expect([bare.status, ((await bare.json()) as { error: { code: string } }).error.code]).toEqual([
      400,
      'invalid_request',
    ]);
  });
});

describe('WebFinger, the app reached by another name than APP_URL', () => {
  // APP_URL http://127.0.0.1:3999 (tests/support/in-process.ts), the listener on another port
  const elsewhere = heldInProcessApp();

  it("answers for APP_URL's host and for the host the query was sent to, its links at APP_URL", async () => {
    const row = await insertIdentity(elsewhere().db);
    const reached = new URL(elsewhere().url).host;
    const webfinger = new WebFinger({ tls_only: false, allow_private_addresses: true, uri_fallback: false });
    const found = await webfinger.lookup(`${row.tag}@${reached}`);
    expect(found.object.subject).toBe(`acct:${row.tag}@${reached}`);
    expect(found.idx.links.profile?.[0]?.href).toBe(`http://127.0.0.1:3999/@${row.tag}`);
    const canonical = await fetch(`${elsewhere().url}/.well-known/webfinger?resource=acct:${row.tag}@127.0.0.1:3999`);
    expect(((await canonical.json()) as { subject: string }).subject).toBe(`acct:${row.tag}@127.0.0.1:3999`);
  });
});

describe('the production build', () => {
  // The routes live in app/.well-known (a folder whose name starts with a dot): served by Next.js
  // itself, outside the page proxy's nonce CSP.
  it('serves both doors at /.well-known, CORS open', async () => {
    const appUrl = inject('appUrl');
    expect(appUrl, 'no production build: run `npx next build` first').not.toBe('');
    const names = await fetch(`${appUrl}/.well-known/nostr.json?name=${randomTag()}`, { redirect: 'manual' });
    expect([names.status, await names.json()]).toEqual([200, { names: {} }]);
    expect(names.headers.get('access-control-allow-origin')).toBe('*');
    const bare = await fetch(`${appUrl}/.well-known/webfinger`, { redirect: 'manual' });
    expect([bare.status, ((await bare.json()) as { error: { code: string } }).error.code]).toEqual([
      400,
      'invalid_request',
    ]);
    expect(bare.headers.get('access-control-allow-origin')).toBe('*');
    expect(bare.headers.get('content-security-policy')).toBeNull();
  });
});
