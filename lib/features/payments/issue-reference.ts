import 'server-only';
import { generateKeyPairSync } from 'node:crypto';
import { fetchEncodedAccount, getAddressDecoder, type Address } from '@solana/kit';
import { AppError } from '@/lib/core/errors';
import { solanaPayLink, type Cluster } from '@/lib/core/solana-pay';
import { getChain, rpcCall, type SolanaRpc } from '@/lib/chain/rpc';
import type { Config } from '@/lib/core/config';
import type { Db } from '@/lib/db';
import { paymentReferences, type PaymentReferenceRow } from '@/lib/db/schema';
import { getIdentity } from '@/lib/features/identity/get-identity';
import type { Identity } from '@/lib/features/identity/schemas';
import { payAssetOf, requestedAsset, toBaseUnits, type PayAsset } from './pay-asset';
import { payeeNow, type PayeeNow } from './payee-now';
import { heldReferenceReason, staleReference, staleReferenceReason } from './pay-reference';
import { referenceExpiry } from './expiry';
import { receiptOf } from './receipt';
import type { PaymentReceipt } from './schemas';

/*
 * Issuing references (DESIGN.md "Payments and receipts"): the one function every route that
 * hands out a payment request calls (POST /v1/payments, the till, GET /pay/{tag}, the pay
 * Action). Each reference is kept with what it was issued for (the tag, the payout wallet the
 * chain holds at that moment, the amount and the asset), so that a payment carrying it is
 * judged against that and nothing the payer's app chose.
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
 * Keeps an issued reference: the one place a reference row is written. A reference already
 * kept stays as it was first issued, and the answer is null: a payer's app that names one
 * again cannot change what it stands for, nor have it issued twice.
 */
export async function recordReference(
  db: Db,
  issued: IssuedFor,
  now: Date,
  ttlSeconds: number,
): Promise<PaymentReferenceRow | null> {
  const [row] = await db
    .insert(paymentReferences)
    .values({ ...issued, issuedAt: now, expiresAt: referenceExpiry(now, ttlSeconds) })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

export interface IssueServices {
  db: Db;
  rpc: SolanaRpc;
  programAddress: Address;
  cluster: Cluster;
  now: Date;
  /** How long a reference is looked for (config `paymentReferenceTtlSeconds`). */
  ttlSeconds: number;
  /** A fresh reference key, when the caller chose none. */
  newReference: () => Address;
}

/** The services of issuing, for a route's configuration and database. */
export function issueServices(
  db: Db,
  config: Pick<Config, 'solana' | 'paymentReferenceTtlSeconds'>,
  now: Date,
): IssueServices {
  const { rpc, programAddress } = getChain(config);
  return {
    db,
    rpc,
    programAddress,
    cluster: config.solana.cluster,
    now,
    ttlSeconds: config.paymentReferenceTtlSeconds,
    newReference: newReferenceKey,
  };
}

export interface IssueRequest {
  /** The canonical tag (no `@`), as the route parsed it. */
  tag: string;
  /** Decimal text in the asset's units; null: the payer chooses (the profile's pay link). */
  amount: string | null;
  /** `SOL` or a mint (POST /v1/payments, the till), or the profile's preferred token (the pay link, the Action). */
  asset: string | 'preferred';
  /** The Action only: a reference the payer's app chose, which must be a fresh key never issued before. */
  chosen?: { reference: Address; payer: Address };
}

export interface IssuedReference {
  identity: Identity;
  payee: PayeeNow;
  asset: PayAsset;
  /** The amount in base units; null when the payer chooses. */
  units: bigint | null;
  reference: Address;
  /** The Solana Pay transfer request. */
  url: string;
  receipt: PaymentReceipt;
}

/**
 * Issues one reference: the tag's payee as the chain holds it now (404, 400 `unsafe_payout`),
 * an asset the payee can keep (400 `unsupported_asset`), an amount the asset can carry (400),
 * a fresh reference never issued before (400), then the row. RPC: one getMultipleAccounts per
 * tag per second or two (lib/chain/payee-on-chain.ts), one getAccountInfo per mint per 10
 * minutes (lib/chain/mint-account.ts), and for a chosen reference one getAccountInfo.
 */
export async function issueReference(services: IssueServices, request: IssueRequest): Promise<IssuedReference> {
  const { db, rpc, programAddress, cluster, now } = services;
  const identity = await getIdentity(db, request.tag);
  // Both reads at once; the payee's refusal is answered first, the one that loses money.
  const [payeeRead, assetRead] = await Promise.allSettled([
    payeeNow({ db, rpc, programAddress }, identity),
    request.asset === 'preferred'
      ? payAssetOf(identity.preferredToken, cluster, rpc)
      : requestedAsset(request.asset, identity.preferredToken, cluster, rpc),
  ]);
  if (payeeRead.status === 'rejected') throw payeeRead.reason;
  if (assetRead.status === 'rejected') throw assetRead.reason;
  const payee = payeeRead.value;
  const asset = assetRead.value;
  const units = request.amount === null ? null : toBaseUnits(request.amount, asset.decimals);
  if (request.amount !== null && units === null) {
    throw new AppError(
      'invalid_request',
      `\`amount\`: must be a positive number of ${asset.symbol} with at most ${asset.decimals} decimal places`,
    );
  }
  const reference = request.chosen ? await freshChosen(rpc, request.chosen, payee) : services.newReference();
  const row = await recordReference(
    db,
    {
      reference,
      tag: request.tag,
      owner: payee.owner,
      recipient: payee.wallet,
      amount: request.amount,
      asset: asset.kind === 'sol' ? 'SOL' : asset.mint,
      decimals: asset.decimals,
    },
    now,
    services.ttlSeconds,
  );
  if (!row) throw alreadyIssued();
  const url = solanaPayLink({
    wallet: payee.wallet,
    mint: asset.kind === 'sol' ? null : asset.mint,
    label: request.amount === null ? (identity.displayName ?? identity.tag) : identity.tag,
    ...(request.amount !== null ? { amount: request.amount } : {}),
    reference,
  });
  return { identity, payee, asset, units, reference, url, receipt: receiptOf(row, now) };
}

/** A chosen reference, once it is known to be a fresh key: not the payer, the wallet, a program, a sysvar, nor any account. */
async function freshChosen(
  rpc: SolanaRpc,
  { reference, payer }: { reference: Address; payer: Address },
  payee: PayeeNow,
): Promise<Address> {
  const known = staleReferenceReason(reference, { payer, wallet: payee.wallet });
  if (known) throw staleReference(known);
  const account = await rpcCall(() => fetchEncodedAccount(rpc, reference, { commitment: 'confirmed' }));
  const held = heldReferenceReason(account.exists ? account : null);
  if (held) throw staleReference(held);
  return reference;
}

/** The 400 of a reference this service issued before: only one the call itself issues is handed out. */
function alreadyIssued(): AppError {
  return new AppError(
    'invalid_request',
    '`reference`: was issued before; a payment request carries only a reference issued for it. Omit `reference` and use the one answered.',
  );
}

/** A fresh reference: the public key of a new ed25519 key pair, whose secret is dropped (no transaction needs it to sign). */
export function newReferenceKey(): Address {
  const jwk = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
  return getAddressDecoder().decode(Buffer.from(jwk.x!, 'base64url'));
}
