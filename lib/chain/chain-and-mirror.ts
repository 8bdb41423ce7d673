import { address, type Address, type RpcTransport } from '@solana/kit';
import type { Config } from '@/lib/core/config';
import type { Db } from '@/lib/db';
import { DEFAULT_RPC_URL, getRpc, getRpcTransport, type SolanaRpc } from './rpc';

/**
 * What every service reading the tag registry and its mirror is handed by its route or job:
 * the database, the cluster, and the program's address (DESIGN "Indexer": the chain decides,
 * the mirror follows).
 */
export interface ChainAndMirror {
  db: Db;
  rpc: SolanaRpc;
  programAddress: Address;
}

/**
 * What a transaction builder is handed by its route or server action: the mirror, and the
 * configuration it takes the cluster, the program and the compute price (`priorityFee`) from.
 */
export interface BuilderServices {
  db: Db;
  config: Pick<Config, 'solana' | 'priorityFee'>;
}

/**
 * What the indexer and the checks of the cluster take beside the RPC: the transport under it
 * (for JSON-RPC batches, which kit's RPC cannot send) and the endpoint's URL, the key of what
 * is kept per provider (the indexer's backoff, the shared cluster check): a kit RPC does not
 * say its URL, and each route's chunk has RPC objects of its own.
 */
export interface ClusterAccess {
  transport: RpcTransport;
  rpcUrl: string;
}

/** The configured cluster (SOLANA_RPC_URL, else the local validator's address) with its transport and URL. */
export function clusterAccess(config: Pick<Config, 'solana'>): Omit<ChainAndMirror, 'db'> & ClusterAccess {
  return {
    rpc: getRpc(config),
    programAddress: address(config.solana.programId),
    transport: getRpcTransport(config),
    rpcUrl: config.solana.rpcUrl ?? DEFAULT_RPC_URL,
  };
}
