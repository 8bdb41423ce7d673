// GET /v1/ens — what the ENS gateway is ({gateway, signer, parent}); POST /v1/ens — the gateway's POST form (EIP-3668)
import { AppError } from '@/lib/core/errors';
import { acceptsJson } from '@/lib/http/accepts-json';
import { ENS_POST_ANSWER_DOCS, ensAnswerResponse } from '@/lib/http/ens-answer';
import { conditionalJson } from '@/lib/http/conditional';
import { ok } from '@/lib/http/docs';
import { v1Operation, v1Route } from '@/lib/http/v1-route';
import { ensGatewayInfo } from '@/lib/features/gateways/ens-gateway';
import { EnsGatewayInfo, EnsLookupBody } from '@/lib/features/gateways/schemas';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/ens', {
  GET: v1Operation({
    operationId: 'ensGatewayInfo',
    tags: ['ecosystems'],
    summary: 'The ENS gateway: its URL template, its signer and the parent name',
    description:
      'What an operator deploys ENS\'s offchain resolver with for the parent name (docs/integrators.md, "ENS"): the resolver\'s `url` is `gateway`, its `signers` `[signer]`.',
    responses: { 200: ok('The gateway, its signer and the parent name', EnsGatewayInfo) },
    errors: { 406: 'The request’s `Accept` excludes `application/json`' },
    handler: async (req, { services: { config } }) => {
      if (!acceptsJson(req.headers.get('accept')))
        throw new AppError('not_acceptable', 'This answer is served as application/json only.');
      return conditionalJson(req, ensGatewayInfo(config.ens, config.appUrl.origin), {
        cacheControl: 'public, max-age=300',
      });
    },
  }),
  POST: v1Operation({
    operationId: 'ensGatewayLookupPost',
    tags: ['ecosystems'],
    summary: 'ENS CCIP-Read gateway, POST form: `{sender, data}` in the body',
    description:
      'The same answer as GET /v1/ens/{sender}/{data}.json, for a resolver whose gateway URL has no `{data}` (EIP-3668 then POSTs the lookup).',
    body: { schema: EnsLookupBody, maxBytes: 40 * 1024 },
    ...ENS_POST_ANSWER_DOCS,
    handler: async (_req, { body, services }) => ensAnswerResponse(services, body, 'no-store'),
  }),
});
