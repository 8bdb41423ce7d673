import { z } from 'zod';
import { LastValidBlockHeight, unsignedTransaction } from '@/lib/features/registry/schemas';
import { decodePublicKey, PublicKeyString } from '@/lib/core/keys';

/*
 * The tag lifecycle's request and response schemas (DESIGN.md "Lifecycle"): the
 * same schemas validate the /v1 bodies, type lib/features/lifecycle and generate the OpenAPI document.
 * Nothing here reaches the database, so pages may import it.
 */

/** The all-zero key: the program's "no pending owner", never a valid wallet, owner or receiver. */
export function isZeroKey(text: string): boolean {
  const bytes = decodePublicKey(text);
  return bytes !== null && bytes.every((b) => b === 0);
}

/** A key the program would refuse as zero (`WalletIsZero`, `NewOwnerIsZero`): malformed input, a 400. */
const nonZeroKey = (description: string) =>
  PublicKeyString.refine((text) => !isZeroKey(text), { message: 'must not be the zero address' }).meta({ description });

const feePayer = PublicKeyString.meta({
  description:
    'Sponsor that pays the network fee; defaults to the caller. When it differs from the caller, both sign: the caller first, the sponsor last.',
}).optional();

/** POST /v1/identity/{tag}/wallet */
export const SetWalletRequest = z
  .strictObject({ wallet: nonZeroKey('The new payout wallet.'), feePayer })
  .meta({ id: 'SetWalletRequest' });
export type SetWalletRequest = z.infer<typeof SetWalletRequest>;

/** POST /v1/identity/{tag}/transfer: the offer. */
export const OfferTransferRequest = z
  .strictObject({
    newOwner: nonZeroKey('The key the tag is offered to; it becomes the owner only when it accepts.'),
    feePayer,
  })
  .meta({ id: 'OfferTransferRequest' });
export type OfferTransferRequest = z.infer<typeof OfferTransferRequest>;

/** POST /v1/identity/{tag}/transfer/cancel and …/accept: no body, `{}` or `{ feePayer }`. */
export const FeePayerOnlyRequest = z.strictObject({ feePayer }).meta({ id: 'LifecycleFeePayerRequest' });
export type FeePayerOnlyRequest = z.infer<typeof FeePayerOnlyRequest>;

/** POST /v1/identity/{tag}/release */
export const ReleaseRequest = z
  .strictObject({
    receiver: nonZeroKey(
      'Receives what the record holds above its rent deposit; the deposit too when the release closes a record whose 30-day rest is over. Defaults to the owner.',
    ).optional(),
    feePayer,
  })
  .meta({ id: 'ReleaseRequest' });
export type ReleaseRequest = z.infer<typeof ReleaseRequest>;

/** What every lifecycle builder answers: as POST /v1/register, without `pda`. */
export const LifecycleTransaction = z
  .object({
    transaction: unsignedTransaction('transaction'),
    lastValidBlockHeight: LastValidBlockHeight,
  })
  .meta({ id: 'LifecycleTransaction' });
export type LifecycleTransaction = z.infer<typeof LifecycleTransaction>;

/** GET /v1/identity/{tag}/transfer: who owns the tag and to whom it is offered. */
export const TransferState = z
  .object({
    tag: z.string().meta({ description: 'The tag with a leading `@`, as in the identity object.', example: '@alice' }),
    owner: z.string().meta({ description: 'The current owner.' }),
    pendingOwner: z
      .string()
      .nullable()
      .meta({ description: 'The key the tag is offered to, or null when no offer stands.' }),
  })
  .meta({ id: 'TransferState' });
export type TransferState = z.infer<typeof TransferState>;

/**
 * One lifecycle call as the settings page's server action takes it: which instruction, and
 * its arguments, checked with the same key rules as the /v1 bodies (no zero key).
 */
export const LifecycleCall = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('set_wallet'), wallet: nonZeroKey('The new payout wallet.') }),
  z.strictObject({ kind: z.literal('offer_transfer'), newOwner: nonZeroKey('The key the tag is offered to.') }),
  z.strictObject({ kind: z.literal('cancel_transfer') }),
  z.strictObject({ kind: z.literal('accept_transfer') }),
  z.strictObject({
    kind: z.literal('release_tag'),
    receiver: nonZeroKey(
      'Receives what the record holds above its rent deposit; the deposit too when the release closes a record whose 30-day rest is over.',
    ).optional(),
  }),
]);
export type LifecycleCall = z.infer<typeof LifecycleCall>;
