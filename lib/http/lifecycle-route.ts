import type { z } from 'zod';
import { BRIEFLY_UNREACHABLE, ok, tagPath } from '@/lib/http/docs';
import { v1Operation } from '@/lib/http/v1-route';
import { getChain } from '@/lib/chain/rpc';
import { parseTagParam } from '@/lib/features/identity/get-identity';
import {
  buildLifecycleTransaction,
  type LifecycleOperation,
} from '@/lib/features/lifecycle/build-lifecycle-transaction';
import { LifecycleTransaction } from '@/lib/features/lifecycle/schemas';

/** Bodies are a few keys; anything larger is not one of ours. */
const MAX_BODY_BYTES = 4096;

/** What a lifecycle route says of itself; the rest is common to the five. */
interface LifecycleDocs {
  operationId: string;
  summary: string;
  /** The checks after the record is found, in order. */
  checks: string;
  errors: { 400?: string; 409?: string; 403: string };
}

/**
 * The POST operation of one lifecycle builder: rate-limited like POST /v1/register (its
 * policy, a bucket of its own), then in DESIGN.md's order: 400 for a malformed tag or body,
 * 401 without a valid bearer token, then the builder's 404, 409, 403 and 503. The body is
 * parsed with the operation's schema; a missing body reads as `{}` (cancel and accept take
 * none, the other schemas then name their required key).
 */
export function lifecycleOperation<B extends { feePayer?: string }>(
  docs: LifecycleDocs,
  schema: z.ZodType<B>,
  operationOf: (body: B) => LifecycleOperation,
) {
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
    body: { schema, maxBytes: MAX_BODY_BYTES, optional: true },
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
    handler: async (_req, { params: { tag }, body, caller, services: { db, config } }) => {
      const { connection, programId } = getChain(config);
      const operation = operationOf(body);
      return buildLifecycleTransaction({
        db,
        connection,
        programId,
        caller,
        tag,
        operation,
        feePayer: body.feePayer,
        priorityFee: config.priorityFee,
      });
    },
  });
}

export const NOT_THE_OWNER = 'The caller is not the owner on chain';
