import { inject } from 'vitest';
import { getChain } from '@/lib/chain/rpc';
import { parseConfig } from '@/lib/core/config';
import { ownerOnChain, type OwnerCheck } from '@/lib/features/identity/owner-on-chain';

/** The owner check the app's writers use, on the test localnet and the default program id. */
export function localOwnerCheck(): OwnerCheck {
  return ownerOnChain(getChain(parseConfig({ SOLANA_RPC_URL: inject('rpcUrl') })));
}
