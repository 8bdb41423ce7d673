import { PublicKey, type Connection } from '@solana/web3.js';
import { rpcCall } from '@/lib/chain/rpc';
import { payToken, type Cluster } from '@/lib/core/solana-pay';
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '@/lib/chain/spl-token';

/*
 * What a "pay @tag" Action pays in: the profile's preferred token where that token has a mint
 * on this cluster (the known mint table of lib/core/solana-pay.ts, or a mint address the
 * profile named, checked on chain), SOL otherwise.
 */

export { TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID };

/**
 * An SPL mint account is 82 bytes: mint authority (36), supply (8), `decimals` at byte 44,
 * `is_initialized` at byte 45, freeze authority (36). Token-2022 mints with extensions are
 * longer: padded to the 165 bytes of a token account, then the account type at byte 165
 * (1 = mint, 2 = token account), so a token account is never taken for a mint.
 */
const MINT_SIZE = 82;
export const MINT_DECIMALS_OFFSET = 44;
const MINT_INITIALIZED_OFFSET = 45;
const TOKEN_ACCOUNT_SIZE = 165;
const ACCOUNT_TYPE_MINT = 1;

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
  mint: PublicKey;
  /** The mint's owner: SPL Token or Token-2022. */
  tokenProgram: PublicKey;
}

export type PayAsset = SolAsset | SplAsset;

const sol = (fallback: boolean): SolAsset => ({ kind: 'sol', symbol: 'SOL', decimals: 9, fallback });

/**
 * What a mint address read as, kept per process: a mint's owner and decimals never change once
 * it is initialized, so an SPL answer is kept until it is the oldest of MINTS_KEPT; a "not a
 * mint" answer (no account yet, or another kind) may change, so it is kept for
 * NOT_A_MINT_KEPT_MS. 1,000 entries of under 200 bytes each: at most a few hundred KB, and more
 * distinct mints than the profiles of a deployment name in a day. With it the Action's GET asks
 * the cluster once per mint, not once per request (docs/operating-rpc.md).
 */
const MINTS_KEPT = 1000;
const NOT_A_MINT_KEPT_MS = 60_000;
const mints = new Map<string, { asset: SplAsset | null; until: number }>();

function keptMint(mint: string, now: number): { asset: SplAsset | null } | undefined {
  const kept = mints.get(mint);
  if (!kept) return undefined;
  if (kept.until < now) {
    mints.delete(mint);
    return undefined;
  }
  mints.delete(mint); // most recently used goes last
  mints.set(mint, kept);
  return kept;
}

function keepMint(mint: string, asset: SplAsset | null, now: number): void {
  mints.set(mint, { asset, until: asset ? Number.POSITIVE_INFINITY : now + NOT_A_MINT_KEPT_MS });
  if (mints.size > MINTS_KEPT) mints.delete(mints.keys().next().value!);
}

/** Lookups in flight, by mint: callers asking for one mint at once share one call. */
const lookingUp = new Map<string, Promise<SplAsset | null>>();

/** Reads `mintAddress` from the cluster (once at a time per mint) and keeps what it is. */
function lookUpMint(
  mintAddress: string,
  connection: Connection,
  now: number,
  beforeLookup?: () => Promise<void>,
): Promise<SplAsset | null> {
  const inFlight = lookingUp.get(mintAddress);
  if (inFlight) return inFlight;
  const lookup = (async () => {
    await beforeLookup?.();
    const mint = new PublicKey(mintAddress);
    const account = await rpcCall(() => connection.getAccountInfo(mint));
    const isMint =
      account !== null &&
      (account.owner.equals(TOKEN_PROGRAM_ID) || account.owner.equals(TOKEN_2022_PROGRAM_ID)) &&
      isInitializedMint(account.data, account.owner.equals(TOKEN_2022_PROGRAM_ID));
    const asset: SplAsset | null = isMint
      ? { kind: 'spl', symbol: '', decimals: account.data[MINT_DECIMALS_OFFSET]!, mint, tokenProgram: account.owner }
      : null;
    keepMint(mintAddress, asset, now);
    return asset;
  })();
  lookingUp.set(mintAddress, lookup);
  return lookup.finally(() => lookingUp.delete(mintAddress));
}

/**
 * The asset for a profile's `preferredToken` on `cluster`, reading the mint account when there
 * is one and it is not kept yet; `beforeLookup` runs just before that read (the Action's GET
 * counts its rate limit there, so cached answers cost no budget).
 */
export async function payAssetOf(
  preferredToken: string | null,
  cluster: Cluster,
  connection: Connection,
  { beforeLookup, now = Date.now() }: { beforeLookup?: () => Promise<void>; now?: number } = {},
): Promise<PayAsset> {
  const token = payToken(preferredToken, cluster);
  if (!token.mint) return sol(token.unavailable);
  const kept = keptMint(token.mint, now) ?? { asset: await lookUpMint(token.mint, connection, now, beforeLookup) };
  if (!kept.asset) return sol(true);
  // the symbol is the profile's label for the mint, not the mint's: it is set per answer
  return {
    ...kept.asset,
    symbol: token.label.length > 12 ? `${token.label.slice(0, 4)}…${token.label.slice(-4)}` : token.label,
  };
}

/** Whether a token program's account data is a mint, and an initialized one. */
export function isInitializedMint(data: Uint8Array, token2022: boolean): boolean {
  const shaped =
    data.length === MINT_SIZE ||
    (token2022 && data.length > TOKEN_ACCOUNT_SIZE && data[TOKEN_ACCOUNT_SIZE] === ACCOUNT_TYPE_MINT);
  return shaped && data[MINT_INITIALIZED_OFFSET] === 1;
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
