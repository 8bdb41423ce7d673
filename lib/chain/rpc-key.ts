import type { SolanaRpc } from './rpc';

/*
 * What a cache keeps per cluster: kit's RPC does not expose its URL, so each client gets a
 * number of its own. The process holds one client per URL (lib/chain/rpc.ts `getRpc`), so
 * this keys by endpoint as before; a test's own client keeps its own entries.
 */
const keys = new WeakMap<SolanaRpc, number>();
let next = 0;

/** The cache key of `rpc`'s cluster, stable for the client's life. */
export function rpcKey(rpc: SolanaRpc): string {
  let key = keys.get(rpc);
  if (key === undefined) {
    key = next++;
    keys.set(rpc, key);
  }
  return `rpc#${key}`;
}
