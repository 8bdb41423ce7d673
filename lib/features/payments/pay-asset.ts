import type { Address } from '@solana/kit';
import { AppError } from '@/lib/core/errors';
import type { SolanaRpc } from '@/lib/chain/rpc';
import { isWellKnownMint, payToken, TOKEN_MINTS, type Cluster } from '@/lib/core/solana-pay';
import { isMintKept, readMint, refusedMint } from '@/lib/chain/mint-account';
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '@/lib/chain/spl-token';

/*
 * What a payment request pays in (DESIGN "Payments and receipts", "Assets"): SOL, the cluster's
 * well-known stablecoins (lib/core/solana-pay.ts), or the payee's own `preferredToken`; any
 * other mint is 400 `unsupported_asset`, and so is a Token-2022 mint whose extensions can take,
 * withhold or freeze what was paid (lib/chain/mint-account.ts). The pay link and the Action pay
 * in the profile's preferred token where it has a mint on this cluster, SOL otherwise.
 */

export { TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID };

export interface SolAsset {
  kind: 'sol';
  symbol: 'SOL';
  decimals: 9;
  /** The profile prefers a token that has no mint on this cluster. */
  fallback: boolean;
}

export interface SplAsset {
  kind: 'spl';
  symbol: string;
  decimals: number;
  mint: Address;
  /** The mint's owner: SPL Token or Token-2022. */
  tokenProgram: Address;
}

export type PayAsset = SolAsset | SplAsset;

const sol = (fallback: boolean): SolAsset => ({ kind: 'sol', symbol: 'SOL', decimals: 9, fallback });

/** How a mint is named to a payer: its symbol when well known, else the payee's label for it, shortened. */
function symbolOf(mint: string, cluster: Cluster, label: string): string {
  const known = Object.entries(TOKEN_MINTS[cluster]).find(([, address]) => address === mint);
  if (known) return known[0];
  return label.length > 12 ? `${label.slice(0, 4)}…${label.slice(-4)}` : label;
}

interface LookupOptions {
  /** Runs just before the mint is read from the cluster (not when it is kept): a rate limit counts there. */
  beforeLookup?: () => Promise<void>;
  now?: number;
}

/**
 * The SPL asset of `mint`, or null when it is no mint on the cluster; 400 when an extension is
 * refused, unless it is one of the cluster's well-known stablecoins (`isWellKnownMint`).
 */
async function splAssetOf(
  rpc: SolanaRpc,
  cluster: Cluster,
  mint: string,
  symbol: string,
  { beforeLookup, now = Date.now() }: LookupOptions,
): Promise<SplAsset | null> {
  const key = mint as Address;
  if (beforeLookup && !isMintKept(rpc, key, now)) await beforeLookup();
  const read = await readMint(rpc, key, now);
  if (!read) return null;
  if (read.refused && !isWellKnownMint(mint, cluster)) throw refusedMint(mint, read.refused);
  return { kind: 'spl', symbol, decimals: read.decimals, mint: key, tokenProgram: read.tokenProgram };
}

/**
 * The asset for a profile's `preferredToken` on `cluster` (the pay link, the Action): its mint
 * where it has one on this cluster, SOL otherwise (`fallback` says so); 400 `unsupported_asset`
 * for a mint with a refused extension, which a profile kept from before the rule may name.
 */
export async function payAssetOf(
  preferredToken: string | null,
  cluster: Cluster,
  rpc: SolanaRpc,
  options: LookupOptions = {},
): Promise<PayAsset> {
  const token = payToken(preferredToken, cluster);
  if (!token.mint) return sol(token.unavailable);
  const asset = await splAssetOf(rpc, cluster, token.mint, symbolOf(token.mint, cluster, token.label), options);
  return asset ?? sol(true);
}

/**
 * The asset a request names (POST /v1/payments' `asset`: `SOL` or a mint), for a payee whose
 * profile prefers `preferredToken`: SOL, a well-known stablecoin of the cluster, or the
 * payee's own token; any other mint, or one that is not a mint here, is 400 `unsupported_asset`.
 */
export async function requestedAsset(
  asset: string,
  preferredToken: string | null,
  cluster: Cluster,
  rpc: SolanaRpc,
): Promise<PayAsset> {
  if (asset === 'SOL') return sol(false);
  const preferred = payToken(preferredToken, cluster);
  if (!isWellKnownMint(asset, cluster) && preferred.mint !== asset) {
    throw new AppError(
      'unsupported_asset',
      '`asset`: must be `SOL`, a well-known stablecoin of this cluster (USDC, USDT, PYUSD, EURC) or the payee’s own `preferredToken`',
    );
  }
  const found = await splAssetOf(rpc, cluster, asset, symbolOf(asset, cluster, preferred.label), {});
  if (!found) throw new AppError('unsupported_asset', '`asset`: is not a token mint on this cluster');
  return found;
}

const MAX_U64 = 2n ** 64n - 1n;

/** ASCII digits and one point, nothing else: no space, sign, exponent or invisible character. */
const AMOUNT = /^(\d{1,15})(?:\.(\d+))?$/;

/**
 * A decimal amount in the asset's units ("1.5") → base units (lamports, token atoms), or null
 * when it is not a positive number with at most `decimals` places (or does not fit a u64). Integers all the way: no
 * float ever touches money.
 */
export function toBaseUnits(text: string, decimals: number): bigint | null {
  const match = AMOUNT.exec(text);
  if (!match) return null;
  const [, whole, fraction = ''] = match;
  if (fraction.length > decimals) return null;
  const units = BigInt(whole!) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
  return units > 0n && units <= MAX_U64 ? units : null;
}
