import 'server-only';
import { indexedSlotHeaders } from './indexed-slot';
import { answerEnsLookup, type EnsLookup } from '@/lib/features/gateways/ens-gateway';
import { EnsGatewayAnswer } from '@/lib/features/gateways/schemas';
import { PUBLIC_READ_CACHE_CONTROL } from './cors';
import { ok, PublicReadHeaders } from './docs';
import type { Services } from './services';

/*
 * The ENS gateway's answer, for its GET and POST forms (app/v1/ens). No ETag: every answer is
 * signed with its own expiry, so no two answers a second apart are the same bytes. A shared
 * cache may keep a GET answer as long as a resolve answer (its signature outlives that).
 */

const ANSWER = 'The signed answer (empty records for a name with no live tag)';
const MALFORMED =
  'Malformed `sender` or `data`: not a resolver address, not the callData of resolve(bytes,bytes), a malformed DNS name, or a resolver call other than addr, text, contenthash or multicall';

/** The GET form: cacheable by a shared cache like a resolve answer. */
export const ENS_GET_ANSWER_DOCS = {
  responses: { 200: ok(ANSWER, EnsGatewayAnswer, PublicReadHeaders) },
  errors: { 400: MALFORMED },
} as const;

/** The POST form: the same answer, not cached (`no-store`). */
export const ENS_POST_ANSWER_DOCS = {
  responses: { 200: ok(ANSWER, EnsGatewayAnswer, PublicReadHeaders.omit({ 'Cache-Control': true })) },
  errors: { 400: MALFORMED },
} as const;

/** The GET form's Cache-Control; the POST form's is `no-store`. */
export const ENS_GET_CACHE_CONTROL = PUBLIC_READ_CACHE_CONTROL;

export async function ensAnswerResponse(
  { db, config }: Services,
  lookup: EnsLookup,
  cacheControl: string,
): Promise<Response> {
  const { value, indexedSlot } = await answerEnsLookup(db, config.ens, config.appUrl.origin, lookup, new Date());
  return Response.json(value, { headers: { 'Cache-Control': cacheControl, ...indexedSlotHeaders(indexedSlot) } });
}
