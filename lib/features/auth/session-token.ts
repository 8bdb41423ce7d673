import 'server-only';
import { SignJWT, jwtVerify } from 'jose';

/** Session token lifetime (SPEC 2.4, 5): one hour, no refresh; sign in again. */
export const SESSION_TTL_SECONDS = 60 * 60;

export interface SessionTokenKeys {
  key: CryptoKey;
  issuer: string;
  audience: string;
}

/**
 * The HS256 key, imported once as a WebCrypto key (jose signs and verifies with it about
 * twice as fast as with a KeyObject or raw bytes); issuer is the app origin, audience its /v1.
 */
export async function sessionTokenKeys(secret: string, appOrigin: string): Promise<SessionTokenKeys> {
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
  return { key, issuer: appOrigin, audience: `${appOrigin}/v1` };
}

/** `sub` = the signed-in public key, `jti` = the consumed nonce. */
export async function issueSessionToken(
  keys: SessionTokenKeys,
  claims: { pubkey: string; nonce: string },
  now: Date,
): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.pubkey)
    .setJti(claims.nonce)
    .setIssuer(keys.issuer)
    .setAudience(keys.audience)
    .setIssuedAt(iat)
    .setExpirationTime(iat + SESSION_TTL_SECONDS)
    .sign(keys.key);
}

/** The token's public key, or null for any invalid token (algorithm pinned to HS256). */
export async function verifySessionToken(keys: SessionTokenKeys, token: string, now: Date): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(token, keys.key, {
      algorithms: ['HS256'],
      issuer: keys.issuer,
      audience: keys.audience,
      currentDate: now,
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    return typeof payload.sub === 'string' ? payload.sub : null;
  } catch {
    return null;
  }
}
