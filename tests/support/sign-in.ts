import bs58 from 'bs58';
import nacl from 'tweetnacl';

export interface TestKeypair {
  publicKey: string;
  secretKey: Uint8Array;
}

export function newKeypair(): TestKeypair {
  const kp = nacl.sign.keyPair();
  return { publicKey: bs58.encode(kp.publicKey), secretKey: kp.secretKey };
}

/** ed25519 signature of the UTF-8 message, base58, signed with tweetnacl as a wallet would. */
export function signText(kp: TestKeypair, message: string): string {
  return bs58.encode(nacl.sign.detached(new TextEncoder().encode(message), kp.secretKey));
}

let clientCounter = 0;
/** A distinct client address per caller, so tests do not share rate-limit buckets. */
export function clientHeaders(): Record<string, string> {
  clientCounter += 1;
  return { 'content-type': 'application/json', 'x-forwarded-for': `10.${process.pid % 250}.${(clientCounter >> 8) % 250}.${clientCounter % 250}` };
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = clientHeaders()) {
  const res = await fetch(url, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: text ? safeJson(text) : undefined };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export async function requestChallenge(appUrl: string, kp: TestKeypair): Promise<string> {
  const res = await postJson(`${appUrl}/v1/auth/challenge`, { pubkey: kp.publicKey });
  if (res.status !== 200) throw new Error(`challenge failed: ${res.status} ${res.text}`);
  return (res.json as { message: string }).message;
}

/** The whole SPEC 5 flow: challenge, sign, verify → a session token. */
export async function signIn(appUrl: string, kp: TestKeypair = newKeypair()): Promise<{ token: string; keypair: TestKeypair }> {
  const message = await requestChallenge(appUrl, kp);
  const res = await postJson(`${appUrl}/v1/auth/verify`, { pubkey: kp.publicKey, message, signature: signText(kp, message) });
  if (res.status !== 200) throw new Error(`verify failed: ${res.status} ${res.text}`);
  return { token: (res.json as { token: string }).token, keypair: kp };
}
