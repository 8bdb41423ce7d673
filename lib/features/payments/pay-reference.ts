import type { EncodedAccount } from '@solana/kit';
import { AppError } from '@/lib/core/errors';
import { ASSOCIATED_TOKEN_PROGRAM_ID } from '@/lib/chain/spl-token';
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from './pay-asset';

/*
 * A Solana Pay `reference` is how a payment is found again (getSignaturesForAddress on it) and,
 * later, what receipts key on. It must be a fresh key that no other transaction names: the
 * payer, the payout wallet, a program or a sysvar appear in countless transactions, so a
 * "payment" found by them would be anybody's.
 */

/** Programs every transfer or wallet names (System, the token programs, Memo, compute budget, loaders…). */
const KNOWN_PROGRAM_IDS = new Set([
  '11111111111111111111111111111111',
  TOKEN_PROGRAM_ID,
  TOKEN_2022_PROGRAM_ID,
  ASSOCIATED_TOKEN_PROGRAM_ID,
  'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
  'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
  'ComputeBudget111111111111111111111111111111',
  'AddressLookupTab1e1111111111111111111111111',
  'BPFLoader1111111111111111111111111111111111',
  'BPFLoader2111111111111111111111111111111111',
  'BPFLoaderUpgradeab1e11111111111111111111111',
  'LoaderV411111111111111111111111111111111111',
  'NativeLoader1111111111111111111111111111111',
  'Vote111111111111111111111111111111111111111',
  'Stake11111111111111111111111111111111111111',
  'Config1111111111111111111111111111111111111',
  'Ed25519SigVerify111111111111111111111111111',
  'KeccakSecp256k11111111111111111111111111111',
  'Secp256r1SigVerify1111111111111111111111111',
]);

/** Every sysvar's address, and the sysvar owner's, starts with these letters (SysvarC1ock…, SysvarRent…). */
const SYSVAR_PREFIX = 'Sysvar';

/** Why `reference` is not a fresh key, from what is known without the cluster; null when nothing is against it. */
export function staleReferenceReason(
  reference: string,
  { payer, wallet }: { payer: string; wallet: string },
): string | null {
  if (reference === payer) return 'is the payer';
  if (reference === wallet) return 'is the payout wallet';
  if (reference.startsWith(SYSVAR_PREFIX)) return 'is a sysvar';
  if (KNOWN_PROGRAM_IDS.has(reference)) return 'is a program';
  return null;
}

/** Why the account the cluster holds at `reference` makes it no fresh key (a program, a sysvar, any account at all). */
export function heldReferenceReason(account: EncodedAccount | null): string | null {
  if (account === null) return null;
  if (account.executable) return 'is a program';
  if (account.programAddress.startsWith(SYSVAR_PREFIX)) return 'is a sysvar';
  return 'holds an account already';
}

/** The 400 of a reference that is not a fresh key. */
export function staleReference(reason: string): AppError {
  return new AppError(
    'invalid_request',
    `\`reference\`: must be a fresh key that no other transaction names; this one ${reason}`,
  );
}
