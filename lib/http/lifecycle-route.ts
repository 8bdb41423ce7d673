import type { z } from 'zod';
import { BRIEFLY_UNREACHABLE, ok, tagPath } from '@/lib/http/docs';
import { v1Operation } from '@/lib/http/v1-route';
import { parseTagParam } from '@/lib/features/identity/get-identity';
import {
  buildLifecycleTransaction,
  type LifecycleOperation,
} from '@/lib/features/lifecycle/build-lifecycle-transaction';
import {
  FeePayerOnlyRequest,
  LifecycleTransaction,
  OfferTransferRequest,
  ReleaseRequest,
  SetWalletRequest,
} from '@/lib/features/lifecycle/schemas';

/** Bodies are a few keys; anything larger is not one of ours. */
const MAX_BODY_BYTES = 4096;

type LifecycleKind = LifecycleOperation['kind'];

/** A builder's body: its instruction's arguments, and a sponsor. */
type LifecycleBody<K extends LifecycleKind> = Omit<Extract<LifecycleOperation, { kind: K }>, 'kind'> & {
  feePayer?: string;
};

/** What a lifecycle route says of itself; the rest is common to the five. */
interface LifecycleRoute<K extends LifecycleKind> {
  operationId: string;
  summary: string;
  /** The checks after the record is found, in order. */
  checks: string;
  errors: { 400?: string; 409?: string; 403: string };
  schema: z.ZodType<LifecycleBody<K>>;
}

const NOT_THE_OWNER = 'The caller is not the owner on chain';

/** The five builders side by side, by the instruction they build (DESIGN.md "Lifecycle"). */
const LIFECYCLE_ROUTES: { [K in LifecycleKind]: LifecycleRoute<K> } = {
  set_wallet: {
    operationId: 'setWallet',
    summary: 'Build an unsigned set_wallet transaction (change the payout wallet)',
    checks:
      'the caller must be the owner (403). Before all that, 400 `unsafe_payout` when SOL sent to the new wallet would be lost (`reason`). The new wallet signs too when it is not the owner.',
    errors: {
      400: 'Malformed tag or body; or `unsafe_payout` (`reason`: `off_curve`, `token_account`, `mint`, `program`, `not_system_owned`)',
      403: NOT_THE_OWNER,
    },
    schema: SetWalletRequest,
  },
  offer_transfer: {
    operationId: 'offerTransfer',
    summary: 'Build an unsigned offer_transfer transaction (offer the tag to a key)',
    checks:
      'an offer to the owner itself is refused (409), the caller must be the owner (403). A new offer replaces a standing one.',
    errors: { 409: 'The tag is offered to its own owner', 403: NOT_THE_OWNER },
    schema: OfferTransferRequest,
  },
  cancel_transfer: {
    operationId: 'cancelTransfer',
    summary: 'Build an unsigned cancel_transfer transaction (take back the standing offer)',
    checks: 'an offer must stand (409), the caller must be the owner (403). No body, `{}` or `{ feePayer }`.',
    errors: { 409: 'No transfer offer stands', 403: NOT_THE_OWNER },
    schema: FeePayerOnlyRequest,
  },
  accept_transfer: {
    operationId: 'acceptTransfer',
    summary: 'Build an unsigned accept_transfer transaction (take the tag offered to you)',
    checks:
      'an offer must stand (409), the caller must be the key it names (403). On accept the payout wallet becomes the new ' +
      'owner. No body, `{}` or `{ feePayer }`.',
    errors: { 409: 'No transfer offer stands', 403: 'The tag is not offered to the caller' },
    schema: FeePayerOnlyRequest,
  },
  release_tag: {
    operationId: 'releaseTag',
    summary: 'Build an unsigned release_tag transaction (give the tag up)',
    checks:
      'the caller must be the owner (403). The identity is deleted and the tag rests 30 days: in that time only its previous ' +
      'owner may register it again, after it anyone may. The record keeps its rent deposit while it rests (`receiver`, ' +
      'default the owner, gets only what it holds above it); the previous owner closes it after the rest by releasing ' +
      'again, and `receiver` then gets the deposit too.',
    errors: { 403: NOT_THE_OWNER },
    schema: ReleaseRequest,
  },
};

/**
 * The POST operation of one lifecycle builder: rate-limited like POST /v1/register (its
 * policy, a bucket of its own), then in DESIGN.md's order: 400 for a malformed tag or body,
 * 401 without a valid bearer token, then the builder's 404, 409, 403 and 503. The body is
 * parsed with the operation's schema; a missing body reads as `{}` (cancel and accept take
 * none, the other schemas then name their required key). The body's keys but `feePayer` are
 * the instruction's arguments.
 */
export function lifecycleOperation<K extends LifecycleKind>(kind: K) {
  const docs: LifecycleRoute<LifecycleKind> = LIFECYCLE_ROUTES[kind];
  return v1Operation({
    operationId: docs.operationId,
    tags: ['lifecycle'],
    summary: docs.summary,
    description:
      'Checks, in order: body and tag (400), token (401), a tag with no record on chain or blocked (404), then the record ' +
      `on chain (not the mirror): ${docs.checks} The service never signs, submits or writes the mirror: sign (the caller ` +
      'and, for a new payout wallet that is another key, that wallet; a sponsor given as `feePayer` last), send, then POST /v1/sync with the signature.',
    rateLimit: 'register',
    params: ({ tag }) => ({ tag: parseTagParam(tag) }), // 400 `invalid_tag`, as GET and PATCH /v1/identity/{tag} answer
    body: { schema: docs.schema, maxBytes: MAX_BODY_BYTES, optional: true },
    bearer: true,
    bearerLast: true,
    requestParams: tagPath,
    responses: { 200: ok('The unsigned transaction to sign and submit', LifecycleTransaction) },
    errors: {
      400: docs.errors[400] ?? 'Malformed tag or body (unknown key, a key that is not a public key, a zero key)',
      404: 'No record on chain for this tag (never registered, or released), or the tag is blocked',
      ...docs.errors,
      503: BRIEFLY_UNREACHABLE,
    },
    handler: async (_req, { params: { tag }, body, caller, services }) =>
      buildLifecycleTransaction(services, { caller, tag, operation: operationOf(kind, body), feePayer: body.feePayer }),
  });
}

function operationOf(
  kind: LifecycleKind,
  { feePayer: _sponsor, ...args }: LifecycleBody<LifecycleKind>,
): LifecycleOperation {
  return { kind, ...args } as LifecycleOperation;
}
