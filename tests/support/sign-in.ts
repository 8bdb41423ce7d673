import { postJson } from './http';
import { newKeypair, signText, type TestKeypair } from './keypair';

export async function requestChallenge(appUrl: string, kp: TestKeypair): Promise<string> {
  const res = await postJson(`${appUrl}/v1/auth/challenge`, { pubkey: kp.publicKey });
  if (res.status !== 200) throw new Error(`challenge failed: ${res.status} ${res.text}`);
  return (res.json as { message: string }).message;
}

/** The whole SPEC 5 flow: challenge, sign, verify → a session token. */
export async function signIn(
  appUrl: string,
  kp: TestKeypair = newKeypair(),
): Promise<{ token: string; keypair: TestKeypair }> {
  const message = await requestChallenge(appUrl, kp);
  const res = await postJson(`${appUrl}/v1/auth/verify`, {
    pubkey: kp.publicKey,
    message,
    signature: signText(kp, message),
  });
  if (res.status !== 200) throw new Error(`verify failed: ${res.status} ${res.text}`);
  return { token: (res.json as { token: string }).token, keypair: kp };
}
