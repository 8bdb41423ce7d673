import { address } from '@solana/kit';
import { UNSAFE_PAYOUT_REASONS, unsafePayoutWithoutRpc, type UnsafePayoutReason } from '@/lib/chain/payout-safety';

/*
 * What a payer must be told before sending money to a tag (docs/integrators.md, "Signals for
 * payers"): the payout wallet cannot safely receive SOL (a record written before the payout
 * rules, DESIGN "Payout rules"), the payout wallet changed recently (the first sign of a
 * taken-over account), or the tag looks like a verified or merchant tag (lib/core/skeleton.ts). A pure function of the
 * tag's signals and the time, so /@tag, the pay Action and GET
 * /v1/identity/{tag}/signals say the same, and tests choose the time.
 */

export const PAYER_WARNING_CODES = ['unsafe_payout', 'wallet_changed_recently', 'lookalike'] as const;
export type PayerWarningCode = (typeof PAYER_WARNING_CODES)[number];

export interface PayerWarning {
  code: PayerWarningCode;
  /** One plain sentence for the payer. */
  message: string;
}

/** What the decision reads: dates as ISO 8601 text (as the signals answer carries them), tags with `@`. */
export interface WarningSignals {
  tag: string;
  registeredAt: string;
  walletSince: string;
  /**
   * The payout wallet, when the reader has it: judged without the cluster (off the curve, or the
   * zero key), so no read costs an RPC call; the account's owner is checked when a wallet is set.
   */
  wallet?: string;
  /**
   * What the last payment request found on chain about this wallet (lib/features/payments/payee-now.ts),
   * when the row holds a finding about the wallet it shows now.
   */
  payoutFinding?: UnsafePayoutReason | null;
  /** Active verified or merchant tags that look like this one. */
  lookalikes: readonly string[];
}

/**
 * How long after a payout-wallet change payers are warned: 72 hours. A taken-over account's
 * first move is to point the wallet elsewhere and ask for money at once; three days covers a
 * weekend in which the real owner may not notice, while an owner who changed wallets on
 * purpose is not flagged for good.
 */
export const WALLET_CHANGE_WARNING_MS = 72 * 3_600_000;

/**
 * The warnings for a payer at `now`. The wallet warning counts only a change after the
 * registration (a new tag's first wallet is not a change), for WALLET_CHANGE_WARNING_MS after it; a
 * change dated after `now` (clocks apart) warns too.
 */
export function payerWarnings(signals: WarningSignals, now: Date): PayerWarning[] {
  const warnings: PayerWarning[] = [];
  const unsafe =
    signals.wallet === undefined ? null : unsafePayoutWarning(signals.tag, signals.wallet, signals.payoutFinding);
  if (unsafe) warnings.push(unsafe);
  const walletSince = Date.parse(signals.walletSince);
  if (walletSince > Date.parse(signals.registeredAt) && now.getTime() - walletSince < WALLET_CHANGE_WARNING_MS) {
    warnings.push({
      code: 'wallet_changed_recently',
      message: `The payout wallet of ${signals.tag} changed on ${signals.walletSince.slice(0, 16).replace('T', ' ')} UTC, less than ${hours(WALLET_CHANGE_WARNING_MS)} hours ago. If you did not expect this, confirm the address with the recipient another way before paying.`,
    });
  }
  if (signals.lookalikes.length > 0) {
    warnings.push({
      code: 'lookalike',
      message: `${signals.tag} looks like ${signals.lookalikes.join(', ')}, a verified or merchant tag. Check that this is the tag you mean to pay.`,
    });
  }
  return warnings;
}

/** What each way of losing a payment is, in the payer's words. */
const UNSAFE_WALLET_WORDS: Record<UnsafePayoutReason, string> = {
  off_curve: 'is a program-derived address that no private key controls',
  program: 'is a program, not a wallet',
  token_account: 'is a token account, not a wallet',
  mint: 'is a token mint, not a wallet',
  not_system_owned: 'was handed to a program and is no longer a wallet',
};

/**
 * The warning for a payout wallet that would lose what it is sent, or null: judged from the key
 * alone (off the curve, or the zero key: records written before the payout rules may hold one),
 * or from `finding`, what a payment request last found on chain about this wallet (a key can
 * `assign` its account to a program after it was set).
 */
export function unsafePayoutWarning(
  tag: string,
  wallet: string,
  finding: UnsafePayoutReason | null = null,
): (PayerWarning & { code: 'unsafe_payout' }) | null {
  const reason = unsafePayoutWithoutRpc(address(wallet)) ?? finding;
  if (!reason) return null;
  return {
    code: 'unsafe_payout',
    message: `The payout wallet of ${tag} ${UNSAFE_WALLET_WORDS[reason]}: SOL sent to it may be lost. Do not pay until its owner sets a new wallet.`,
  };
}

/** The finding a row holds about the wallet it shows now (lib/db/schema.ts `unsafePayoutWallet`), or null. */
export function payoutFindingOf(row: {
  wallet: string;
  unsafePayoutWallet?: string | null;
  unsafePayoutReason?: string | null;
}): UnsafePayoutReason | null {
  if (row.unsafePayoutWallet !== row.wallet) return null;
  return UNSAFE_PAYOUT_REASONS.find((reason) => reason === row.unsafePayoutReason) ?? null;
}

function hours(ms: number): string {
  return String(Math.round(ms / 3_600_000));
}
