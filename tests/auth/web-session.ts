import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildDir } from '@/devstack/app';
import { signText, type TestKeypair } from '../support/keypair';

/*
 * The pages' side of sign-in and server actions, over plain HTTP as a browser sends them:
 * next-auth's CSRF cookie and form post, and a server action's POST with its id.
 */

/** Cookies a response set, as one Cookie header together with earlier ones. */
function addCookies(jar: Map<string, string>, res: Response): void {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const eq = pair!.indexOf('=');
    jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
  }
}

export function cookieHeader(jar: Map<string, string>): string {
  return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
}

/**
 * Posts a signed challenge to next-auth's credentials callback (what `signIn('solana')`
 * sends), with the CSRF token and cookie it asks for. Answers next-auth's JSON: `url` names
 * `error=…` on failure; the cookie jar holds the session on success.
 */
export async function nextAuthSignIn(
  appUrl: string,
  kp: TestKeypair,
  message: string,
  jar = new Map<string, string>(),
  headers: Record<string, string> = {},
): Promise<{ url: string; jar: Map<string, string> }> {
  const csrf = await fetch(`${appUrl}/api/auth/csrf`, { headers });
  addCookies(jar, csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const form = new URLSearchParams({
    csrfToken,
    pubkey: kp.publicKey,
    message,
    signature: signText(kp, message),
    json: 'true',
  });
  const res = await fetch(`${appUrl}/api/auth/callback/solana`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded', cookie: cookieHeader(jar) },
    body: form,
    redirect: 'manual',
  });
  addCookies(jar, res);
  const body = (await res.json()) as { url: string };
  return { url: body.url, jar };
}

/** The id Next.js gave a server action in this build (its server-reference manifest). */
export function serverActionId(exportedName: string): string {
  const manifest = JSON.parse(
    readFileSync(path.join(process.cwd(), buildDir(), 'server', 'server-reference-manifest.json'), 'utf8'),
  ) as {
    node: Record<string, { exportedName: string }>;
  };
  const id = Object.entries(manifest.node).find(([, v]) => v.exportedName === exportedName)?.[0];
  if (!id) throw new Error(`no server action ${exportedName} in this build`);
  return id;
}

/**
 * Calls a server action as the page's client does (POST to the page with Next-Action, the
 * arguments as JSON); answers the status and the raw RSC text, in which the action's result
 * object appears as JSON.
 */
export async function callServerAction(
  appUrl: string,
  pagePath: string,
  exportedName: string,
  args: unknown[],
  jar: Map<string, string>,
  options: { body?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; contentType: string; text: string }> {
  const res = await fetch(`${appUrl}${pagePath}`, {
    method: 'POST',
    headers: {
      accept: 'text/x-component',
      'content-type': 'text/plain;charset=UTF-8',
      'next-action': serverActionId(exportedName),
      origin: appUrl,
      cookie: cookieHeader(jar),
      ...options.headers,
    },
    body: options.body ?? JSON.stringify(args),
  });
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text: await res.text() };
}
