import type { Config } from '@/lib/core/config';
import { logger } from '@/lib/observability/logger';
import { DEFAULT_RPC_URL, getRpc, isClusterUnreachable, rpcCall, type SolanaRpc } from './rpc';

/*
 * The cluster's newest finalized slot as this process last read it, shared by readiness
 * (GET /api/ready), the indexer's status (GET /api/indexer/status), the lag metrics and the
 * indexer's own runs. A request never asks the cluster itself: it takes the last check while
 * it is at most CLUSTER_CHECK_MAX_AGE_MS old, and when it is older, waits for the one refresh
 * in flight (started by whichever caller came first). However many callers, a process makes at
 * most one getSlot per CLUSTER_CHECK_MAX_AGE_MS for them (docs/operating-rpc.md); an indexer
 * run's own getSlot counts as a check too.
 */

/** How old a check may be and still answer: 3 s (a load balancer probes every 5–10 s). */
export const CLUSTER_CHECK_MAX_AGE_MS = 3000;
/** How long one refresh may take before it counts as failed (readiness's deadline). */
export const CLUSTER_CHECK_DEADLINE_MS = 2000;

/** One check of the cluster. `error` is a category, never the provider's message (it may quote a URL with a key). */
export interface ClusterCheck {
  ok: boolean;
  /** The newest finalized slot; absent when the check failed. */
  finalizedSlot?: number;
  /** How long the check took. */
  ms: number;
  /** When it was made (epoch milliseconds). */
  at: number;
  error?: 'timeout' | 'unavailable' | 'failed';
}

/** A cluster as the checks know it: its RPC, and its endpoint's URL, which keys what is kept of it (lib/chain/chain-and-mirror.ts `ClusterAccess`). */
export interface ClusterEndpoint {
  rpc: SolanaRpc;
  rpcUrl: string;
}

/** The configured cluster (SOLANA_RPC_URL, else the local validator's address) as an endpoint. */
export function clusterEndpoint(config: Pick<Config, 'solana'>): ClusterEndpoint {
  return { rpc: getRpc(config), rpcUrl: config.solana.rpcUrl ?? DEFAULT_RPC_URL };
}

interface Store {
  checks: Map<string, ClusterCheck>;
  refreshing: Map<string, Promise<ClusterCheck>>;
}

// On globalThis: Next.js gives each route's chunk its own module state, and readiness, the
// status and the indexer's cron route are different chunks of one process.
const STORE = Symbol.for('identity-tag-service.cluster-check');
const holder = globalThis as unknown as Record<typeof STORE, Store | undefined>;
const store = (): Store => (holder[STORE] ??= { checks: new Map(), refreshing: new Map() });

/** Records a finalized slot read elsewhere (an indexer run), so that callers need not ask again. */
export function recordFinalizedSlot(url: string, finalizedSlot: number, at = Date.now()): void {
  const previous = store().checks.get(url);
  if (previous && previous.at > at) return;
  store().checks.set(url, { ok: true, finalizedSlot, ms: 0, at });
}

/** The last check of the cluster at `endpoint` if it is fresh enough, else the one refresh in flight. */
export async function latestClusterCheck(endpoint: ClusterEndpoint, now = Date.now()): Promise<ClusterCheck> {
  const key = endpoint.rpcUrl;
  const last = store().checks.get(key);
  if (last && now - last.at <= CLUSTER_CHECK_MAX_AGE_MS) return last;
  let refresh = store().refreshing.get(key);
  if (!refresh) {
    refresh = checkCluster(endpoint.rpc).then((check) => {
      store().checks.set(key, check);
      return check;
    });
    store().refreshing.set(key, refresh);
    void refresh.finally(() => store().refreshing.delete(key));
  }
  return refresh;
}

class DeadlinePassed extends Error {}

async function checkCluster(rpc: SolanaRpc): Promise<ClusterCheck> {
  const started = performance.now();
  const at = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new DeadlinePassed(`cluster: no answer within ${CLUSTER_CHECK_DEADLINE_MS} ms`)),
      CLUSTER_CHECK_DEADLINE_MS,
    );
  });
  const ms = () => Math.round(performance.now() - started);
  try {
    const slot = await Promise.race([rpc.getSlot({ commitment: 'finalized' }).send(), deadline]);
    const finalizedSlot = Number(slot);
    return { ok: true, finalizedSlot, ms: ms(), at };
  } catch (err) {
    logger.warn({ err }, 'cluster check failed');
    const error = err instanceof DeadlinePassed ? 'timeout' : isClusterUnreachable(err) ? 'unavailable' : 'failed';
    return { ok: false, ms: ms(), at, error };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Block times of finalized slots, which never change: the status's lag in seconds reads the
 * block times of the finalized slot and of the slot indexed through, each asked once. At most
 * BLOCK_TIMES_KEPT (oldest forgotten first): the two slots in use move on, a few hundred
 * entries cost a few KB.
 */
const BLOCK_TIMES_KEPT = 256;
const BLOCK_TIMES = Symbol.for('identity-tag-service.block-times');
const blockTimeHolder = globalThis as unknown as Record<
  typeof BLOCK_TIMES,
  Map<string, Promise<number | null>> | undefined
>;

/** The block time of a finalized `slot` (null when the node has none), asked of the cluster once per slot. */
export function finalizedBlockTime(endpoint: ClusterEndpoint, slot: number): Promise<number | null> {
  const times = (blockTimeHolder[BLOCK_TIMES] ??= new Map());
  const key = `${endpoint.rpcUrl} ${slot}`;
  let time = times.get(key);
  if (!time) {
    time = rpcCall(() => endpoint.rpc.getBlockTime(BigInt(slot)).send()).then(
      (seconds) => (seconds === null ? null : Number(seconds)),
      () => {
        times.delete(key); // a failure is asked again next time
        return null;
      },
    );
    times.set(key, time);
    if (times.size > BLOCK_TIMES_KEPT) times.delete(times.keys().next().value!);
  }
  return time;
}
