// Sign-in benchmark: POST /v1/auth/challenge and /v1/auth/verify against the trivial route
// of the same build, side by side in one run (target: challenge ≥ 70%, verify ≥ 50%).
import { createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import bs58 from 'bs58';
import { compareRoutes } from './measure';

const JSON_HEADERS = { 'content-type': 'application/json' };
/**
 * More verifies a second than this machine serves (more than its trivial route): the pool of
 * signed challenges never runs dry, so no request replays a used one.
 */
const VERIFY_CEILING_PER_SECOND = 3000;

/** A node-crypto ed25519 key (fast signing, so pre-signing thousands of challenges is quick). */
function benchKey() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const x = publicKey.export({ format: 'jwk' }).x!;
  return {
    pubkey: bs58.encode(Buffer.from(x, 'base64url')),
    privateKey: createPrivateKey(privateKey.export({ format: 'pem', type: 'pkcs8' })),
  };
}

async function signedChallenges(appUrl: string, count: number): Promise<string[]> {
  const key = benchKey();
  const bodies: string[] = [];
  const batch = 20;
  for (let i = 0; i < count; i += batch) {
    const messages = await Promise.all(
      Array.from({ length: Math.min(batch, count - i) }, async () => {
        const res = await fetch(`${appUrl}/v1/auth/challenge`, {
          method: 'POST',
          headers: JSON_HEADERS,
          body: JSON.stringify({ pubkey: key.pubkey }),
        });
        if (!res.ok) throw new Error(`challenge ${res.status}: ${await res.text()}`);
        return ((await res.json()) as { message: string }).message;
      }),
    );
    for (const message of messages) {
      const signature = bs58.encode(sign(null, Buffer.from(message, 'utf8'), key.privateKey));
      bodies.push(JSON.stringify({ pubkey: key.pubkey, message, signature }));
    }
  }
  return bodies;
}

export async function benchAuth({ appUrl }: { appUrl: string }) {
  const challengeBody = JSON.stringify({ pubkey: benchKey().pubkey });
  return compareRoutes({
    title: 'Sign-in (production build, 10 connections)',
    baseline: { name: 'GET /api/health (trivial)', load: () => ({ name: 'trivial', url: `${appUrl}/api/health` }) },
    routes: [
      {
        name: 'POST /v1/auth/challenge',
        load: () => ({
          name: 'challenge',
          url: `${appUrl}/v1/auth/challenge`,
          method: 'POST',
          headers: JSON_HEADERS,
          body: challengeBody,
        }),
      },
      {
        name: 'POST /v1/auth/verify',
        // each request a freshly signed challenge, signed before the round starts (more than
        // the round can use, so the run ends on time, not on an emptied pool)
        load: async (seconds) => {
          const pool = await signedChallenges(appUrl, Math.ceil(VERIFY_CEILING_PER_SECOND * seconds));
          let next = 0;
          return {
            name: 'verify',
            url: `${appUrl}/v1/auth/verify`,
            method: 'POST',
            headers: JSON_HEADERS,
            nextBody: () => pool[next++ % pool.length],
          };
        },
      },
    ],
    targets: { 'POST /v1/auth/challenge': 0.7, 'POST /v1/auth/verify': 0.5 },
  });
}
