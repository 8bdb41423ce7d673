import { address, fetchEncodedAccount, isOffCurveAddress, type Address, type EncodedAccount } from '@solana/kit';
import { AppError } from '@/lib/core/errors';
import { rememberRecent } from '@/lib/core/remember-recent';
import { rpcCall, type SolanaRpc } from '@/lib/chain/rpc';
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '@/lib/chain/spl-token';

/*
 * Only spendable payouts (DESIGN "Payout rules", docs/integrators.md "Payout wallets"): SOL
 * sent to a PDA, a token account, a mint or a program is lost, so the API refuses such a
 * payout wallet before it builds anything. The program refuses every account not owned by the
 * System Program (WalletNotSystemOwned); the API also refuses off-curve addresses, which the
 * program accepts when their program signs (program/README.md "The payout wallet consents").
 */

export const UNSAFE_PAYOUT_REASONS = ['off_curve', 'token_account', 'mint', 'program', 'not_system_owned'] as const;
export type UnsafePayoutReason = (typeof UNSAFE_PAYOUT_REASONS)[number];

/** The loaders that own programs and their data accounts (v1, v2, upgradeable v3, v4). */
const LOADERS = [
  'BPFLoader1111111111111111111111111111111111',
  'BPFLoader2111111111111111111111111111111111',
  'BPFLoaderUpgradeab1e11111111111111111111111',
  'LoaderV411111111111111111111111111111111111',
  'NativeLoader1111111111111111111111111111111',
].map((id) => address(id));

/** The System Program: the owner of every wallet, and itself the all-zero key. */
const SYSTEM_PROGRAM = address('11111111111111111111111111111111');

/** SPL sizes: a mint is 82 bytes, a token account 165; Token-2022 extensions follow byte 165, which names the kind. */
const MINT_SIZE = 82;
const TOKEN_ACCOUNT_SIZE = 165;
const ACCOUNT_TYPE = { mint: 1, tokenAccount: 2 } as const;

const MESSAGES: Record<UnsafePayoutReason, string> = {
  off_curve: 'is not on the ed25519 curve (a program-derived address): no private key can spend from it',
  token_account: 'is a token account: SOL sent to it is lost (Solana Pay: a recipient is a native SOL account)',
  mint: 'is a token mint: SOL sent to it is lost',
  program: 'is a program or one of its accounts: SOL sent to it is lost',
  not_system_owned: 'is an account owned by a program, not a wallet: SOL sent to it is lost',
};

/**
 * What can be told of a payout wallet without the cluster: off the curve, or the zero key
 * (the System Program itself). Cheap enough for every read (the pay Action, resolve, /@tag).
 */
export function unsafePayoutWithoutRpc(wallet: Address): UnsafePayoutReason | null {
  if (wallet === SYSTEM_PROGRAM) return 'program';
  return isOnCurve(wallet) ? null : 'off_curve';
}

/**
 * Whether a key is on the ed25519 curve, remembered per key. The SDK decompresses the point in
 * JavaScript, the dearest step of a /@tag view (bench/results/figures-once-in-comments.md), and every view,
 * resolve and Action of a tag asks it again of the same wallet. A key's answer never changes,
 * so nothing expires; the bound is only memory (about 1 MB), the least recently asked first.
 */
const onCurve = new Map<string, boolean>();
const MAX_REMEMBERED_KEYS = 10_000;

function isOnCurve(wallet: Address): boolean {
  return rememberRecent(onCurve, wallet, () => !isOffCurveAddress(wallet), MAX_REMEMBERED_KEYS);
}

/** Why SOL paid to an address holding `account` would be lost, or null (no account yet, or a System-owned one). */
export function unsafePayoutOfAccount(account: EncodedAccount | null): UnsafePayoutReason | null {
  if (!account || account.programAddress === SYSTEM_PROGRAM) return null;
  const owner = account.programAddress;
  if (account.executable || LOADERS.includes(owner)) return 'program';
  if (owner === TOKEN_PROGRAM_ID || owner === TOKEN_2022_PROGRAM_ID) {
    const size = account.data.length;
    if (size === MINT_SIZE || (size > TOKEN_ACCOUNT_SIZE && account.data[TOKEN_ACCOUNT_SIZE] === ACCOUNT_TYPE.mint))
      return 'mint';
    if (
      size === TOKEN_ACCOUNT_SIZE ||
      (size > TOKEN_ACCOUNT_SIZE && account.data[TOKEN_ACCOUNT_SIZE] === ACCOUNT_TYPE.tokenAccount)
    )
      return 'token_account';
  }
  return 'not_system_owned';
}

/** The reason a payout wallet is unsafe, reading its account (one getAccountInfo) unless the key alone says so. */
export async function unsafePayoutReason(rpc: SolanaRpc, wallet: Address): Promise<UnsafePayoutReason | null> {
  const offline = unsafePayoutWithoutRpc(wallet);
  if (offline) return offline;
  const account = await rpcCall(() => fetchEncodedAccount(rpc, wallet, { commitment: 'confirmed' }));
  return unsafePayoutOfAccount(account.exists ? account : null);
}

/** 400 `unsafe_payout`, its `reason` beside the message. */
export function unsafePayout(wallet: string, reason: UnsafePayoutReason): AppError {
  return new AppError('unsafe_payout', `The payout wallet ${wallet} ${MESSAGES[reason]}.`, {}, { reason });
}

/**
 * The one check before a transaction names a payout wallet (POST /v1/register, POST
 * /v1/identity/{tag}/wallet, the settings page, GET /v1/availability?wallet=): throws 400
 * `unsafe_payout`; 503 when the cluster cannot be reached. Its callers are rate limited: it
 * costs one getAccountInfo.
 */
export async function refuseUnsafePayout(rpc: SolanaRpc, wallet: Address): Promise<void> {
  const reason = await unsafePayoutReason(rpc, wallet);
  if (reason) throw unsafePayout(wallet, reason);
}
