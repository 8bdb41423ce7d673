import 'server-only';
import { PublicKey, type Connection } from '@solana/web3.js';
import { AppError } from '@/lib/core/errors';
import { payToken, solanaPayLink, type Cluster } from '@/lib/core/solana-pay';
import { rpcCall } from '@/lib/chain/rpc';
import type { Db } from '@/lib/db';
import { paymentReferences } from '@/lib/db/schema';
import { getIdentity } from '@/lib/features/identity/get-identity';
import {
  isInitializedMint,
  MINT_DECIMALS_OFFSET,
  toBaseUnits,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
} from '@/lib/features/integrations/pay-asset';
import { referenceExpiry } from './expiry';
import { receiptOf } from './receipt';
import type { PaymentReceipt, PaymentRequest } from './schemas';

/*
 * Issuing references (DESIGN.md "Payments and receipts"): each is kept with what it was issued
 * for (the tag, its payout wallet at that moment, the amount and the asset), so that a payment
 * carrying it is judged against that and nothing the payer's app chose.
 */

/** What a reference is issued for. `decimals` is the asset's (9 for SOL). */
export interface IssuedFor {
  reference: string;
  tag: string;
  /** The tag's owner now: whose subscriptions hear of the payment. */
  owner: string;
  recipient: string;
  /** Null: the payer chooses (the profile's pay link). */
  amount: string | null;
  asset: string;
  decimals: number;
}

/**
 * Keeps an issued reference. A reference already kept stays as it was first issued: a payer's
 * app that names one again cannot change what it stands for.
 */
export async function recordReference(db: Db, issued: IssuedFor, now: Date): Promise<void> {
  await db
    .insert(paymentReferences)
    .values({ ...issued, issuedAt: now, expiresAt: referenceExpiry(now) })
    .onConflictDoNothing();
}

const SOL_DECIMALS = 9;

/** The decimals of `asset` (`SOL` or a mint), reading the mint account: an unknown mint is a 400. */
export async function decimalsOf(asset: string, connection: Connection): Promise<number> {
  if (asset === 'SOL') return SOL_DECIMALS;
  const account = await rpcCall(() => connection.getAccountInfo(new PublicKey(asset)));
  const token2022 = account?.owner.equals(TOKEN_2022_PROGRAM_ID) ?? false;
  if (
    !account ||
    !(account.owner.equals(TOKEN_PROGRAM_ID) || token2022) ||
    !isInitializedMint(account.data, token2022)
  ) {
    throw new AppError('invalid_request', '`asset`: must be `SOL` or the address of an SPL token mint on this cluster');
  }
  return account.data[MINT_DECIMALS_OFFSET]!;
}

export interface IssuePaymentInput {
  db: Db;
  connection: Connection;
  now: Date;
  /** A fresh reference key. */
  newReference: () => PublicKey;
}

/** POST /v1/payments: a reference for `amount` of `asset` to the tag's payout wallet, its Solana Pay URL and the receipt. */
export async function issuePayment(
  { db, connection, now, newReference }: IssuePaymentInput,
  request: PaymentRequest,
): Promise<{ reference: string; url: string; expiresAt: string; receipt: PaymentReceipt }> {
  const identity = await getIdentity(db, request.tag);
  const decimals = await decimalsOf(request.asset, connection);
  if (toBaseUnits(request.amount, decimals) === null) {
    throw new AppError(
      'invalid_request',
      `\`amount\`: must be a positive number with at most ${decimals} decimal places`,
    );
  }
  const issued: IssuedFor = {
    reference: newReference().toBase58(),
    tag: identity.tag.replace(/^@/, ''),
    owner: identity.owner,
    recipient: identity.wallet,
    amount: request.amount,
    asset: request.asset,
    decimals,
  };
  await recordReference(db, issued, now);
  const url = solanaPayLink({
    wallet: issued.recipient,
    mint: request.asset === 'SOL' ? null : request.asset,
    label: identity.tag,
    amount: request.amount,
    reference: issued.reference,
  });
  const expiresAt = referenceExpiry(now);
  return {
    reference: issued.reference,
    url,
    expiresAt: expiresAt.toISOString(),
    receipt: receiptOf(
      {
        ...issued,
        issuedAt: now,
        expiresAt,
        rejected: [],
        status: 'pending',
        signature: null,
        slot: null,
        payer: null,
        paidAt: null,
        reason: null,
        attributed: null,
        checkedAt: null,
      },
      now,
    ),
  };
}

/**
 * The profile's pay link (GET /pay/{tag}): a fresh reference for whatever the payer chooses to
 * send in the profile's token, and its Solana Pay URL. The page itself stays the same for every
 * view (cached by ETag); each click of its link is what issues the reference.
 */
export async function issueOpenReference(
  { db, connection, now, newReference }: IssuePaymentInput,
  tag: string,
  cluster: Cluster,
): Promise<string> {
  const identity = await getIdentity(db, tag);
  const token = payToken(identity.preferredToken, cluster);
  const asset = token.mint ?? 'SOL';
  const issued: IssuedFor = {
    reference: newReference().toBase58(),
    tag: identity.tag.replace(/^@/, ''),
    owner: identity.owner,
    recipient: identity.wallet,
    amount: null,
    asset,
    decimals: await decimalsOf(asset, connection),
  };
  await recordReference(db, issued, now);
  return solanaPayLink({
    wallet: issued.recipient,
    mint: token.mint,
    label: identity.displayName ?? identity.tag,
    reference: issued.reference,
  });
}
