// Runs once when a Next.js server starts: an invalid configuration, or a cluster other than the
// one configured, stops start-up here, with a message naming the variable, instead of failing on
// the first request.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    await import('./lib/core/check-config-at-start');
    // The cluster is never assumed: SOLANA_RPC_URL's genesis hash must agree with SOLANA_CLUSTER.
    const { verifyClusterAtStart } = await import('./lib/chain/cluster-identity');
    await verifyClusterAtStart();
  }
}
