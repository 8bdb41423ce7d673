import { getChain } from '@/lib/chain/rpc';
import { getConfig, type Config } from '@/lib/core/config';
import type { ErrorCode } from '@/lib/core/errors';
import { actionHeaders, blockchainIdOf } from './pay-action';

/** The paths of the Solana Action: every answer of theirs carries the Action's headers. */
export function isActionPath(pathname: string): boolean {
  return pathname.startsWith('/api/actions/') || pathname === '/actions.json';
}

/** The Actions spec's CORS, version and chain headers for the cluster of `config` (this process's by default). */
export async function currentActionHeaders(config?: Pick<Config, 'solana'>): Promise<Record<string, string>> {
  try {
    const { solana } = config ?? getConfig();
    return actionHeaders(await blockchainIdOf(solana.cluster, getChain({ solana }).rpc));
  } catch {
    return actionHeaders(null); // a localnet that cannot be reached: still a valid CORS answer
  }
}

/**
 * An Action path's error answered before its route runs (proxy.ts): our envelope plus the
 * spec's `{ message }`, with the Action's headers, as withActionHeaders answers the route's.
 */
export async function actionErrorResponse(
  status: number,
  error: { code: ErrorCode; message: string },
): Promise<Response> {
  return Response.json(
    { message: error.message, error },
    { status, headers: { ...(await currentActionHeaders()), 'Cache-Control': 'no-store' } },
  );
}
