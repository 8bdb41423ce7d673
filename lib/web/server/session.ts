import 'server-only';
import { getServerSession } from 'next-auth';
import { AppError } from '@/lib/core/errors';
import { getAuthOptions } from '@/lib/web/server/next-auth-options';

/**
 * The public key of the page's next-auth session, or null. Server components and server
 * actions only: it reads the request's cookies.
 */
export async function getSessionKey(): Promise<string | null> {
  const session = await getServerSession(getAuthOptions());
  return session?.pubkey || null;
}

/** As getSessionKey, for server actions: no session is the same 401 the /v1 routes give. */
export async function requireSessionKey(): Promise<string> {
  const key = await getSessionKey();
  if (!key) throw new AppError('unauthorized', 'Sign in with your wallet first.');
  return key;
}
