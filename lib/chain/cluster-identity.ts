import { ConfigError, getConfig, type Config } from '@/lib/core/config';
import { getRpc, type SolanaRpc } from './rpc';

/*
 * The cluster is never assumed (issue 42): once SOLANA_RPC_URL is set, start-up reads the
 * cluster's genesis hash (one getGenesisHash) and refuses to start when it disagrees with
 * SOLANA_CLUSTER, or when SOLANA_CLUSTER is unset and the hash is a public cluster's. Only a
 * cluster proven local runs as `localnet`, and only there do the test wallet (offered to browsers
 * on `localnet` only) and the embedded keys exist (lib/core/config.ts refuses them on the others).
 *
 * A local cluster's genesis hash is made when its ledger is (localnet/chain.ts draws one at
 * random), so "local" is what is none of the public clusters': these three hashes are fixed for
 * the life of each cluster.
 */
export const PUBLIC_GENESIS_HASHES = {
  'mainnet-beta': '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d',
  devnet: 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG',
  testnet: '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3zQawwpjk2NsNY',
} as const satisfies Record<Exclude<Config['solana']['cluster'], 'localnet'>, string>;

type Cluster = Config['solana']['cluster'];

/** The cluster a genesis hash is: one of the public ones, else a local one. */
export function clusterOfGenesisHash(hash: string): Cluster {
  const found = Object.entries(PUBLIC_GENESIS_HASHES).find(([, known]) => known === hash);
  return found ? (found[0] as Cluster) : 'localnet';
}

/**
 * Why the cluster behind SOLANA_RPC_URL, known by `genesisHash`, cannot run under `config`, with
 * the fix; null when it can.
 */
export function clusterMismatch(
  config: Pick<Config, 'solana'>,
  genesisHash: string,
  env: Record<string, string | undefined>,
): string | null {
  const actual = clusterOfGenesisHash(genesisHash);
  const { cluster } = config.solana;
  // Unset, the configuration reads `localnet`: the cluster must then prove itself local.
  const clusterGiven = Boolean(env.SOLANA_CLUSTER);
  const answers = `SOLANA_RPC_URL answers genesis hash ${genesisHash}`;
  if (actual !== 'localnet' && !clusterGiven)
    return `SOLANA_CLUSTER: unset, but ${answers}: that is ${actual}, not a local cluster. Set SOLANA_CLUSTER=${actual} (with an ACTION_IDENTITY_SECRET of your own), or point SOLANA_RPC_URL at a local cluster.`;
  if (actual !== cluster) {
    const what = actual === 'localnet' ? 'none of the public clusters (a local one)' : actual;
    return `SOLANA_CLUSTER: is ${cluster}, but ${answers}: that is ${what}. Set SOLANA_CLUSTER=${actual}, or point SOLANA_RPC_URL at a ${cluster} node.`;
  }
  return null;
}

/**
 * Throws ConfigError (the message names the fix) unless the cluster behind `rpc` is the
 * one `config` names; `env` is what `config` was parsed from (was SOLANA_CLUSTER set at all?).
 */
export async function verifyCluster(
  config: Pick<Config, 'solana'>,
  rpc: SolanaRpc,
  env: Record<string, string | undefined>,
): Promise<Cluster> {
  let genesisHash: string;
  try {
    genesisHash = await rpc.getGenesisHash().send();
  } catch {
    // The provider's message is not quoted: it may carry the URL, and with it an API key.
    throw new ConfigError(
      'Invalid configuration:\n  SOLANA_RPC_URL: did not answer getGenesisHash; start-up needs it to know which cluster this is. Check the URL and that the node is up.',
    );
  }
  const mismatch = clusterMismatch(config, genesisHash, env);
  if (mismatch) throw new ConfigError(`Invalid configuration:\n  ${mismatch}`);
  return clusterOfGenesisHash(genesisHash);
}

/**
 * Start-up's check (instrumentation.ts, under `npm start` and a bare `next start` alike; and
 * scripts/serve.ts before Next.js loads): with SOLANA_RPC_URL set, an unproven cluster stops
 * the process with the message.
 */
export async function verifyClusterAtStart(config: Pick<Config, 'solana'> = getConfig()): Promise<void> {
  if (!config.solana.rpcUrl) return;
  try {
    await verifyCluster(config, getRpc(config), process.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(err.message);
    process.exit(1);
  }
}
