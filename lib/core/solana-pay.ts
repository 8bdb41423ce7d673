/**
 * Solana Pay transfer-request links for a profile's payout wallet
 * (`solana:<recipient>?spl-token=<mint>&label=<label>`). No `spl-token` means SOL.
 */
import type { Config } from '@/lib/core/config';
import { isPublicKey } from '@/lib/core/keys';

export type Cluster = Config['solana']['cluster'];

/**
 * Mints of the symbols `preferredToken` accepts, per cluster. Only mints their issuers
 * publish are listed; a symbol with no mint on a cluster (every one on localnet) falls back
 * to a SOL link, and the page says so.
 */
export const TOKEN_MINTS: Readonly<Record<Cluster, Readonly<Record<string, string>>>> = {
  'mainnet-beta': {
    USDC: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    USDT: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB',
    PYUSD: '2b1kV6DkPAnxd5ixfnxCpjxmKwqjjaYmCZfHsFu24GXo',
    EURC: 'HzwqbKZw8HxMN6bF2yFZNrht3c2iXXzpKcFu7uBEDKtr',
  },
  devnet: {
    // Circle's devnet faucet mint.
    USDC: '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU',
  },
  testnet: {},
  localnet: {},
};

/**
 * Whether `mint` is one of the cluster's well-known stablecoins above. Their issuers'
 * Token-2022 controls (PYUSD has a permanent delegate, a transfer hook and a transfer fee
 * config, all held by its regulated issuer, as USDC's freeze authority is Circle's) are what
 * holding that stablecoin means anywhere, so they are accepted as listed; any other mint with
 * such an extension is refused (lib/chain/mint-account.ts).
 */
export function isWellKnownMint(mint: string, cluster: Cluster): boolean {
  return Object.values(TOKEN_MINTS[cluster]).includes(mint);
}

export interface PayToken {
  /** What the link asks for: a symbol, or the mint address itself. */
  label: string;
  /** The SPL mint, or null for native SOL. */
  mint: string | null;
  /** The profile asked for a token this cluster has no mint for: the link pays SOL instead. */
  unavailable: boolean;
}

/** The token a link should request, from the profile's `preferredToken` (null → SOL). */
export function payToken(preferredToken: string | null, cluster: Cluster): PayToken {
  if (!preferredToken || preferredToken.toUpperCase() === 'SOL')
    return { label: 'SOL', mint: null, unavailable: false };
  const symbol = preferredToken.toUpperCase();
  const known = TOKEN_MINTS[cluster][symbol];
  if (known) return { label: symbol, mint: known, unavailable: false };
  if (isPublicKey(preferredToken)) return { label: preferredToken, mint: preferredToken, unavailable: false };
  return { label: 'SOL', mint: null, unavailable: true };
}

/**
 * A Solana Pay transfer request to `wallet` for `token`, labelled for the payer's wallet; with
 * an `amount` (decimal text) and a `reference` key when the payment is to be found by it.
 */
export function solanaPayLink(input: {
  wallet: string;
  mint: string | null;
  label: string;
  amount?: string;
  reference?: string;
}): string {
  const params = new URLSearchParams();
  if (input.amount) params.set('amount', input.amount);
  if (input.mint) params.set('spl-token', input.mint);
  if (input.reference) params.set('reference', input.reference);
  params.set('label', input.label);
  // Solana Pay asks for RFC 3986 percent-encoding; URLSearchParams writes spaces as '+'.
  return `solana:${input.wallet}?${params.toString().replaceAll('+', '%20')}`;
}
