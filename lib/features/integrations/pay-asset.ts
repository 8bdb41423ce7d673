import { PublicKey, type Connection } from '@solana/web3.js';
import { rpcCall } from '@/lib/chain/rpc';
import { payToken, type Cluster } from '@/lib/core/solana-pay';

/*
 * What a "pay @tag" Action pays in: the profile's preferred token where that token has a mint
 * on this cluster (the known mint table of lib/core/solana-pay.ts, or a mint address the
 * profile named, checked on chain), SOL otherwise.
 */

export const TOKEN_PROGRAM_ID = new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
export const TOKEN_2022_PROGRAM_ID = new PublicKey('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb');

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

/** The asset for a profile's `preferredToken` on `cluster`, reading the mint account when there is one. */
export async function payAssetOf(preferredToken: string | null, cluster: Cluster, connection: Connection): Promise<PayAsset> {
  const token = payToken(preferredToken, cluster);
  if (!token.mint) return sol(token.unavailable);
  const mint = new PublicKey(token.mint);
  const account = await rpcCall(() => connection.getAccountInfo(mint));
  const isMint =
    account !== null &&
    (account.owner.equals(TOKEN_PROGRAM_ID) || account.owner.equals(TOKEN_2022_PROGRAM_ID)) &&
    isInitializedMint(account.data, account.owner.equals(TOKEN_2022_PROGRAM_ID));
  if (!isMint) return sol(true);
  return {
    kind: 'spl',
    symbol: token.label.length > 12 ? `${token.label.slice(0, 4)}…${token.label.slice(-4)}` : token.label,
    decimals: account.data[MINT_DECIMALS_OFFSET]!,
    mint,
    tokenProgram: account.owner,
  };
}

/** Whether a token program's account data is a mint, and an initialized one. */
export function isInitializedMint(data: Uint8Array, token2022: boolean): boolean {
  const shaped =
    data.length === MINT_SIZE || (token2022 && data.length > TOKEN_ACCOUNT_SIZE && data[TOKEN_ACCOUNT_SIZE] === ACCOUNT_TYPE_MINT);
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
