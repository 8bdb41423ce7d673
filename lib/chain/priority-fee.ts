import type { Address } from '@solana/kit';
import type { PriorityFeePolicy } from '@/lib/core/config';
import { AppError } from '@/lib/core/errors';
import { logger } from '@/lib/observability/logger';
import { rpcCall, type SolanaRpc } from './rpc';

/** getRecentPrioritizationFees takes at most this many accounts. */
const MAX_FEE_ACCOUNTS = 128;

/**
 * The compute-unit price (micro-lamports) a built transaction bids (DESIGN "Operating"): the
 * cluster's recent prioritization fees for the accounts it writes (one value per recent slot,
 * each the most that slot's transactions writing one of them paid at least, as
 * getRecentPrioritizationFees answers), at the policy's percentile, never above its ceiling.
 * A cluster that reports nothing recent gives 0, and so does one that refuses the method (a
 * JSON-RPC error; some providers do not serve it) or answers something else than fees, with a
 * warning: a transaction without a priority fee still lands, later under congestion
 * (docs/integrators.md, "Compute budget and fees"). An unreachable cluster, or a provider rate limiting us, is a 503
 * like any other read of the builders (the blockhash read beside this one needs it too).
 */
export async function recentPriorityFee(
  rpc: SolanaRpc,
  writable: readonly Address[],
  policy: PriorityFeePolicy,
): Promise<number> {
  const accounts = [...new Set(writable)].slice(0, MAX_FEE_ACCOUNTS);
  let fees: number[];
  try {
    const recent: unknown = await rpcCall(() => rpc.getRecentPrioritizationFees(accounts).send());
    fees = feesOf(recent);
  } catch (err) {
    if (err instanceof AppError) throw err;
    logger.warn(
      { err },
      'priority fee: the cluster refused getRecentPrioritizationFees; building at 0 micro-lamports per CU',
    );
    return 0;
  }
  return Math.min(percentile(fees, policy.percentile), policy.maxMicroLamports);
}

/** The fees of the answer; kit does not check an answer's shape, so a malformed one is refused here. */
function feesOf(recent: unknown): number[] {
  if (!Array.isArray(recent)) throw new TypeError('getRecentPrioritizationFees did not answer a list');
  return recent.map((entry: unknown) => {
    const fee = (entry as { prioritizationFee?: unknown } | null)?.prioritizationFee;
    if (typeof fee !== 'bigint' && typeof fee !== 'number')
      throw new TypeError('getRecentPrioritizationFees answered an entry without a fee');
    return Number(fee);
  });
}

/** Nearest-rank percentile (0 → the lowest, 100 → the highest); 0 for no values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}
