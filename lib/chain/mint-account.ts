import { fetchEncodedAccount, type Address, type EncodedAccount, type ReadonlyUint8Array } from '@solana/kit';
import { AppError } from '@/lib/core/errors';
import { KeptBytes } from '@/lib/core/kept-bytes';
import { rpcCall, type SolanaRpc } from '@/lib/chain/rpc';
import { rpcKey } from '@/lib/chain/rpc-key';
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '@/lib/chain/spl-token';

/*
 * What a mint address holds (DESIGN "Payments and receipts", "Assets"): an SPL Token or
 * Token-2022 mint, its decimals, and whether one of its Token-2022 extensions can take,
 * withhold or freeze what a payee is paid. Read once per mint and kept (lib/core/kept-bytes.ts).
 */

/**
 * An SPL mint account is 82 bytes: mint authority (36), supply (8), `decimals` at byte 44,
 * `is_initialized` at byte 45, freeze authority (36). Token-2022 mints with extensions are
 * longer: padded to the 165 bytes of a token account, then the account type at byte 165
 * (1 = mint, 2 = token account), so a token account is never taken for a mint; then the
 * extensions, each a u16 type, a u16 length and its value (little-endian).
 */
const MINT_SIZE = 82;
export const MINT_DECIMALS_OFFSET = 44;
const MINT_INITIALIZED_OFFSET = 45;
const TOKEN_ACCOUNT_SIZE = 165;
const ACCOUNT_TYPE_MINT = 1;
const EXTENSIONS_OFFSET = TOKEN_ACCOUNT_SIZE + 1;

/** Token-2022's extension types that can take, withhold or freeze a payment, by their number in the program. */
const TRANSFER_FEE_CONFIG = 1;
const DEFAULT_ACCOUNT_STATE = 6;
const NON_TRANSFERABLE = 9;
const PERMANENT_DELEGATE = 12;
const TRANSFER_HOOK = 14;
const PAUSABLE = 26;
const ACCOUNT_STATE_FROZEN = 2;

/** The extensions refused, as the service names them. */
export const REFUSED_EXTENSIONS = [
  'permanent_delegate',
  'transfer_fee',
  'transfer_hook',
  'default_account_state_frozen',
  'non_transferable',
  'pausable',
] as const;
export type RefusedExtension = (typeof REFUSED_EXTENSIONS)[number];

/** What each refused extension does to a payee, for the error's message. */
export const REFUSED_EXTENSION_EFFECTS: Record<RefusedExtension, string> = {
  permanent_delegate: 'a permanent delegate can move or burn the tokens out of the payee’s account',
  transfer_fee: 'a transfer fee withholds part of every payment',
  transfer_hook: 'a transfer hook runs a program of the mint’s choosing on every transfer',
  default_account_state_frozen: 'new token accounts start frozen',
  non_transferable: 'the tokens can never be moved on',
  pausable: 'its authority can pause every transfer',
};

/** 400 `unsupported_asset`: a mint the payee cannot keep what it is paid in; `reason` names the extension. */
export function refusedMint(mint: string, extension: RefusedExtension): AppError {
  return new AppError(
    'unsupported_asset',
    `The token ${mint} has the Token-2022 extension ${extension}: ${REFUSED_EXTENSION_EFFECTS[extension]}. Payments in it are refused.`,
    {},
    { reason: extension },
  );
}

export interface MintAccount {
  tokenProgram: Address;
  decimals: number;
  /** The first extension that can take, withhold or freeze a payment, or null. */
  refused: RefusedExtension | null;
}

/** Whether a token program's account data is a mint, and an initialized one. */
export function isInitializedMint(data: ReadonlyUint8Array, token2022: boolean): boolean {
  const shaped =
    data.length === MINT_SIZE ||
    (token2022 && data.length > TOKEN_ACCOUNT_SIZE && data[TOKEN_ACCOUNT_SIZE] === ACCOUNT_TYPE_MINT);
  return shaped && data[MINT_INITIALIZED_OFFSET] === 1;
}

/** The mint an account holds, or null when it is none (no account, another program's, not a mint, not initialized). */
export function mintOfAccount(account: EncodedAccount | null): MintAccount | null {
  if (!account) return null;
  const token2022 = account.programAddress === TOKEN_2022_PROGRAM_ID;
  if (!(token2022 || account.programAddress === TOKEN_PROGRAM_ID)) return null;
  if (!isInitializedMint(account.data, token2022)) return null;
  return {
    tokenProgram: token2022 ? TOKEN_2022_PROGRAM_ID : TOKEN_PROGRAM_ID,
    decimals: account.data[MINT_DECIMALS_OFFSET]!,
    refused: token2022 ? refusedExtension(account.data) : null,
  };
}

/** The first extension of a Token-2022 mint's data that a payee cannot keep its payment under; null for none. */
export function refusedExtension(data: ReadonlyUint8Array): RefusedExtension | null {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  for (let at = EXTENSIONS_OFFSET; at + 4 <= data.length;) {
    const type = view.getUint16(at, true);
    const length = view.getUint16(at + 2, true);
    const value = data.subarray(at + 4, at + 4 + length);
    const refused = refusedOf(type, value);
    if (refused) return refused;
    at += 4 + length;
  }
  return null;
}

function refusedOf(type: number, value: ReadonlyUint8Array): RefusedExtension | null {
  switch (type) {
    case TRANSFER_FEE_CONFIG:
      return 'transfer_fee'; // even at 0 %: its authority may raise it at any time
    case TRANSFER_HOOK:
      return 'transfer_hook'; // even with no program yet: its authority may set one
    case NON_TRANSFERABLE:
      return 'non_transferable';
    case PAUSABLE:
      return 'pausable';
    case PERMANENT_DELEGATE:
      // An all-zero key is "none", and no instruction can set one later.
      return value.some((byte) => byte !== 0) ? 'permanent_delegate' : null;
    case DEFAULT_ACCOUNT_STATE:
      return value[0] === ACCOUNT_STATE_FROZEN ? 'default_account_state_frozen' : null;
    default:
      return null;
  }
}

/**
 * Kept per cluster client (lib/chain/rpc-key.ts) and mint: a mint's program and decimals never change, but its
 * default account state can (its authority may switch it to frozen), so a mint is kept for
 * MINT_KEPT_MS; "not a mint" (no account yet) for NOT_A_MINT_KEPT_MS. Each entry is under
 * 200 bytes: the budget holds some 1,000 mints, more than the profiles of a deployment name
 * in a day, so a pay route asks the cluster about a mint once per 10 minutes, not per request.
 */
const MINT_KEPT_MS = 600_000;
const NOT_A_MINT_KEPT_MS = 60_000;
const KEPT_BYTES = 200_000;
const ENTRY_BYTES = 200;
const kept = new KeptBytes<{ mint: MintAccount | null }>(KEPT_BYTES, () => ENTRY_BYTES);

/** Whether `mint` was read within its keeping time: what a caller counts a rate limit by (no RPC, no count). */
export function isMintKept(rpc: SolanaRpc, mint: Address, now = Date.now()): boolean {
  return kept.get(keyOf(rpc, mint), now) !== undefined;
}

/** The mint at `mint` (one getAccountInfo unless kept; callers asking at once share it); null when it is no mint. 503 when the cluster cannot be reached. */
export async function readMint(rpc: SolanaRpc, mint: Address, now = Date.now()): Promise<MintAccount | null> {
  const key = keyOf(rpc, mint);
  const found = await kept.getOrMake(key, now, async () => {
    const account = await rpcCall(() => fetchEncodedAccount(rpc, mint, { commitment: 'confirmed' }));
    const read = { mint: mintOfAccount(account.exists ? account : null) };
    kept.set(key, read, now + (read.mint ? MINT_KEPT_MS : NOT_A_MINT_KEPT_MS));
    return read;
  });
  return found.mint;
}

function keyOf(rpc: SolanaRpc, mint: Address): string {
  return `${rpcKey(rpc)} ${mint}`;
}
