import type { GetTransactionApiResponseJson, TransactionVersion } from '@solana/kit';
import { toBaseUnits } from '@/lib/features/payments/pay-asset';

/*
 * Solana Pay's transfer validation (DESIGN.md "Payments and receipts"; `@solana/pay`'s
 * validateTransfer is the reference behaviour, its current release is built on a newer
 * `@solana/kit` than ours, so the rule is written here): the reference must be one of the
 * transaction's accounts, and the recipient's balance, in SOL or in the mint's token account,
 * must have grown by exactly the amount issued. Balances are compared before and after, so
 * any instruction shape that pays the recipient counts, and nothing else does.
 */

/** A transaction as getTransaction answers it (`encoding: 'json'`, versions up to 0): u64s as bigint. */
export type PaymentTransaction = GetTransactionApiResponseJson<TransactionVersion | void>;

/** What the reference was issued for. */
export interface Expected {
  reference: string;
  recipient: string;
  /** Null: any amount the payer chose (a reference issued without one). */
  amount: string | null;
  /** `SOL` or the mint. */
  asset: string;
  decimals: number;
}

/** `paid`: what the recipient received, as decimal text in the asset's units. */
export type Judgement =
  { valid: true; payer: string; paid: string } | { valid: false; reason: string; payer: string | null };

/** Base units as the asset's decimal text ("1500000", 6 → "1.5"). */
function decimal(units: bigint, decimals: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * Every account of the transaction, the fee payer first: the message's own, then those loaded
 * from lookup tables (writable, then read-only), the order instructions index them by.
 */
export function accountKeysOf(tx: PaymentTransaction): string[] {
  const loaded = tx.meta && 'loadedAddresses' in tx.meta ? tx.meta.loadedAddresses : undefined;
  return [...tx.transaction.message.accountKeys, ...(loaded?.writable ?? []), ...(loaded?.readonly ?? [])];
}

/** Judges a confirmed transaction that carries the reference against what the reference was issued for. */
export function validateTransfer(tx: PaymentTransaction, expected: Expected): Judgement {
  const meta = tx.meta;
  const keys = accountKeysOf(tx);
  const payer = keys[0] ?? null;
  if (!meta) return { valid: false, reason: 'the transaction has no status metadata', payer };
  if (meta.err) return { valid: false, reason: 'the transaction failed', payer };
  if (!keys.includes(expected.reference))
    return { valid: false, reason: 'the reference is not an account of the transaction', payer };
  const unit = expected.asset === 'SOL' ? 'SOL' : `of mint ${expected.asset}`;
  const received =
    expected.asset === 'SOL' ? solReceived(keys, meta, expected.recipient) : tokenReceived(meta, expected);
  if (typeof received === 'string') return { valid: false, reason: received, payer };
  if (expected.amount === null) {
    if (received <= 0n) return { valid: false, reason: `the recipient received no ${unit}`, payer };
    return { valid: true, payer: payer!, paid: decimal(received, expected.decimals) };
  }
  const amount = toBaseUnits(expected.amount, expected.decimals)!;
  if (received !== amount) {
    return {
      valid: false,
      reason: `the recipient received ${decimal(received, expected.decimals)} ${unit}, not the ${decimal(amount, expected.decimals)} asked`,
      payer: payer,
    };
  }
  return { valid: true, payer: payer!, paid: expected.amount };
}

type Meta = NonNullable<PaymentTransaction['meta']>;

/** The recipient's SOL balance change, or why there is none. */
function solReceived(keys: string[], meta: Meta, recipient: string): bigint | string {
  const index = keys.indexOf(recipient);
  if (index < 0) return 'the transaction does not pay the recipient (wrong recipient)';
  return meta.postBalances[index]! - meta.preBalances[index]!;
}

/** The change of the recipient's balance of the mint (over its token accounts), or why there is none. */
function tokenReceived(meta: Meta, { recipient, asset }: Expected): bigint | string {
  const pre = meta.preTokenBalances ?? [];
  const post = meta.postTokenBalances ?? [];
  const owned = [...pre, ...post].filter((b) => b.owner === recipient);
  if (owned.length === 0) return 'the transaction does not pay the recipient (wrong recipient)';
  if (!owned.some((b) => b.mint === asset))
    return `the recipient received another token, not mint ${asset} (wrong mint)`;
  const sum = (balances: typeof pre) =>
    balances
      .filter((b) => b.owner === recipient && b.mint === asset)
      .reduce((total, b) => total + BigInt(b.uiTokenAmount.amount), 0n);
  return sum(post) - sum(pre);
}
