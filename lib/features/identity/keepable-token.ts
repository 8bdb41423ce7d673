import type { Address } from '@solana/kit';
import { readMint, refusedMint } from '@/lib/chain/mint-account';
import type { SolanaRpc } from '@/lib/chain/rpc';
import { isWellKnownMint, payToken, type Cluster } from '@/lib/core/solana-pay';

/*
 * A `preferredToken` is what the profile's pay link and the pay Action ask payers for (DESIGN
 * "Payments and receipts", "Assets"): a Token-2022 mint whose extensions can take, withhold or
 * freeze what was paid is refused there, so it is refused here first, naming the extension.
 */

/** Throws 400 `unsupported_asset` for a preferred token the payee could not keep payments in. */
export type TokenCheck = (preferredToken: string) => Promise<void>;

/**
 * The check against the cluster: a symbol or a mint the cluster knows; one getAccountInfo per
 * mint, kept (lib/chain/mint-account.ts). An address that is no mint (yet) is let through, as
 * before: the pay link asks for SOL while it is none.
 */
export function keepableToken({ rpc }: { rpc: SolanaRpc }, cluster: Cluster): TokenCheck {
  return async (preferredToken) => {
    const { mint } = payToken(preferredToken, cluster);
    if (!mint || isWellKnownMint(mint, cluster)) return; // the cluster's stablecoins are accepted as listed
    const read = await readMint(rpc, mint as Address);
    if (read?.refused) throw refusedMint(mint, read.refused);
  };
}
