import { inject } from 'vitest';
import { getChain } from '@/lib/chain/rpc';
import { parseConfig } from '@/lib/core/config';
import { ownerOnChain, type OwnerCheck } from '@/lib/features/identity/owner-on-chain';
import { keepableToken, type TokenCheck } from '@/lib/features/identity/keepable-token';

/** The owner check the app's writers use, on the test localnet and the default program id. */
export function localOwnerCheck(): OwnerCheck {
  return ownerOnChain(getChain(parseConfig({ SOLANA_RPC_URL: inject('rpcUrl') })));
}

/** The preferred-token check the app's writers use (lib/features/identity/keepable-token.ts), on the test localnet. */
export function localTokenCheck(): TokenCheck {
  return keepableToken(getChain(parseConfig({ SOLANA_RPC_URL: inject('rpcUrl') })), 'localnet');
}
