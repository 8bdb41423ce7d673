/** Browser-side calls to the app's own /v1 routes. */

/** The message of the /v1 error envelope, or a generic one. */
export async function errorMessageOf(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { error?: { message?: string } };
    if (body.error?.message) return body.error.message;
  } catch {
    // not JSON
  }
  return `The server answered ${res.status}.`;
}

/** A wallet's "no" (Wallet Standard / EIP-1193 style 4001, or the words wallets use). */
export function isUserRejection(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 4; depth++) {
    const o = e as { code?: unknown; message?: unknown; error?: unknown; cause?: unknown };
    if (o.code === 4001) return true;
    if (typeof o.message === 'string' && /reject|declin|denied|cancel/i.test(o.message)) return true;
    e = o.error ?? o.cause;
  }
  return false;
}
