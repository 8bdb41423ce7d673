import { postJson, type ApiResponse } from './http';
import { newKeypair, signText, type TestKeypair } from './keypair';

export async function requestChallenge(appUrl: string, kp: TestKeypair): Promise<string> {
  const res = await postJson(`${appUrl}/v1/auth/challenge`, { pubkey: kp.publicKey });
  if (res.status !== 200) throw new Error(`challenge failed: ${res.status} ${res.text}`);
  return (res.json as { message: string }).message;
}

/** POST /v1/auth/verify of `message`, with `kp`'s signature over `signed` (the message itself unless told). */
export function verifySigned(appUrl: string, kp: TestKeypair, message: string, signed = message): Promise<ApiResponse> {
  return postJson(`${appUrl}/v1/auth/verify`, { pubkey: kp.publicKey, message, signature: signText(kp, signed) });
}

/** The whole SPEC 5 flow: challenge, sign, verify → a session token. */
export async function signIn(
  appUrl: string,
  kp: TestKeypair = newKeypair(),
): Promise<{ token: string; keypair: TestKeypair }> {
  const message = await requestChallenge(appUrl, kp);
  const res = await verifySigned(appUrl, kp, message);
  if (res.status !== 200) throw new Error(`verify failed: ${res.status} ${res.text}`);
  return { token: (res.json as { token: string }).token, keypair: kp };
}
