import { SignJWT, base64url } from 'jose';
import { describe, expect, inject, it } from 'vitest';
import { TEST_AUTH_SECRET } from '@/devstack/app';
import { newKeypair } from '../support/keypair';
import { signIn } from '../support/sign-in';

const appUrl = inject('appUrl');
const secret = new TextEncoder().encode(TEST_AUTH_SECRET);

async function token(o: { secret?: Uint8Array; aud?: string; iss?: string; exp?: number; sub?: string } = {}) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(o.sub ?? newKeypair().publicKey)
    .setIssuer(o.iss ?? appUrl)
    .setAudience(o.aud ?? `${appUrl}/v1`)
    .setIssuedAt(now - 10)
    .setExpirationTime(o.exp ?? now + 600)
    .sign(o.secret ?? secret);
}

function session(authorization?: string) {
  return fetch(`${appUrl}/v1/auth/session`, { headers: authorization ? { authorization } : {} });
}

const REFUSED: Record<string, () => Promise<string | undefined>> = {
  'no Authorization header': async () => undefined,
  'not a Bearer scheme': async () => `Basic ${Buffer.from('a:b').toString('base64')}`,
  'garbage token': async () => 'Bearer not.a.jwt',
  expired: async () => `Bearer ${await token({ exp: Math.floor(Date.now() / 1000) - 5 })}`,
  tampered: async () => {
    const [h, , s] = (await token()).split('.');
    const payload = base64url.encode(
      JSON.stringify({ sub: newKeypair().publicKey, iss: appUrl, aud: `${appUrl}/v1`, exp: 9999999999 }),
    );
    return `Bearer ${h}.${payload}.${s}`;
  },
  'alg none': async () => {
    const h = base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }));
    const p = base64url.encode(
      JSON.stringify({ sub: newKeypair().publicKey, iss: appUrl, aud: `${appUrl}/v1`, exp: 9999999999 }),
    );
    return `Bearer ${h}.${p}.`;
  },
  'wrong secret': async () =>
    `Bearer ${await token({ secret: new TextEncoder().encode('another-secret-of-at-least-32-characters!') })}`,
  'wrong audience': async () => `Bearer ${await token({ aud: 'https://other.example/v1' })}`,
  'wrong issuer': async () => `Bearer ${await token({ iss: 'https://other.example' })}`,
};

describe('the bearer wrapper refuses bad tokens', () => {
  for (const [name, make] of Object.entries(REFUSED)) {
    it(name, async () => {
      const res = await session(await make());
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(await res.json()).toEqual({
        error: { code: 'unauthorized', message: 'A valid session token is required.' },
      });
    });
  }

  it('accepts a token signed with the right secret, issuer and audience (control)', async () => {
    const sub = newKeypair().publicKey;
    const res = await session(`Bearer ${await token({ sub })}`);
    expect(res.status).toBe(200);
    expect((await res.json()).pubkey).toBe(sub);
  });

  it('accepts the token verify issued', async () => {
    const { token: t, keypair } = await signIn(appUrl);
    const res = await session(`Bearer ${t}`);
    expect(await res.json()).toMatchObject({ pubkey: keypair.publicKey });
  });
});
