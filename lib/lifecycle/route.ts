import type { z } from 'zod';
import { withCors } from '@/lib/api/cors';
import { delegatesTo } from '@/lib/api/answers';
import { json, withApi, withBearer, withRateLimit, type ApiContext, type Handler, type RouteContext } from '@/lib/api/handler';
import { parseWith } from '@/lib/api/parse';
import { readOptionalJson } from '@/lib/api/read-json';
import { getChain } from '@/lib/chain/rpc';
import { parseTagParam } from '@/lib/identity/get-identity';
import { buildLifecycleTransaction, type LifecycleOperation } from './build-lifecycle-transaction';

type TagRoute = { tag: string };

/** Bodies are a few keys; anything larger is not one of ours. */
const MAX_BODY_BYTES = 4096;

/**
 * The POST handler of one lifecycle builder (issue 12): rate-limited like POST /v1/register
 * (its policy, a bucket of its own), then in the order: 400 for a malformed tag or
 * body, 401 without a valid bearer token, then the builder's 404, 409, 403 and 503. The body
 * is parsed with the operation's schema; a missing body reads as `{}` (cancel and accept
 * take none, the other schemas then name their required key).
 */
export function lifecycleRoute<S extends z.ZodType<{ feePayer?: string }>>(
  schema: S,
  operationOf: (body: z.infer<S>) => LifecycleOperation,
): Handler<RouteContext<TagRoute>> {
  type Checked = ApiContext<TagRoute> & { tag: string; operation: LifecycleOperation; feePayer: string | undefined };
  const authenticated = withBearer<Checked>(async (_req, { caller, tag, operation, feePayer, services: { db, config } }) => {
    const { connection, programId } = getChain(config);
    return json(await buildLifecycleTransaction({ db, connection, programId, caller, tag, operation, feePayer, priorityFee: config.priorityFee }));
  });
  return withCors(
    withApi<TagRoute>(
      withRateLimit(
        'register',
        delegatesTo(authenticated, async (req: Request, ctx: ApiContext<TagRoute>) => {
          const tag = parseTagParam(ctx.params.tag); // 400 `invalid_tag`, as GET and PATCH /v1/identity/{tag} answer
          const body = parseWith(schema, (await readOptionalJson(req, MAX_BODY_BYTES)) ?? {});
          return authenticated(req, { ...ctx, tag, operation: operationOf(body), feePayer: body.feePayer });
        }),
      ),
    ),
  );
}
