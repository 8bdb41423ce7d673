// GET /v1/ens/{sender}/{data} (the resolver's URL template: /v1/ens/{sender}/{data}.json) — the ENS CCIP-Read gateway (EIP-3668): a signed answer for `<tag>.<parent>`
import { z } from 'zod';
import { ENS_GET_ANSWER_DOCS, ENS_GET_CACHE_CONTROL, ensAnswerResponse } from '@/lib/http/ens-answer';
import { parseWith } from '@/lib/http/parse';
import { v1Operation, v1Route } from '@/lib/http/v1-route';
import { EnsLookupPath, EnsSender } from '@/lib/features/gateways/schemas';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/ens/{sender}/{data}', {
  GET: v1Operation({
    operationId: 'ensGatewayLookup',
    tags: ['ecosystems'],
    summary:
      "ENS CCIP-Read gateway: resolve `<tag>.<parent>` (`/v1/ens/{sender}/{data}.json`, the offchain resolver's URL template)",
    description:
      "What an ENS client (viem, ethers, MetaMask…) fetches when the parent name's offchain resolver reverts with OffchainLookup. " +
      "Answers in the signed-response convention of ENS's reference offchain resolver (ensdomains/offchain-resolver): " +
      '`addr(node, 501)` is the payout wallet, `addr(node)` and other coin types are empty, `text` answers `avatar`, `description`, `url` and `name`. ' +
      'A name with no live tag (unknown, blocked, released) gets a signed empty answer, never an error. Sends no RPC call.',
    params: (raw) => parseWith(EnsLookupPath, raw),
    requestParams: {
      path: z.object({
        sender: EnsSender,
        data: z.string().meta({
          description:
            "The OffchainLookup callData, 0x-prefixed hex, then `.json`: the resolver's URL template is `/v1/ens/{sender}/{data}.json`",
          example: '0x9061b923….json',
        }),
      }),
    },
    ...ENS_GET_ANSWER_DOCS,
    handler: async (_req, { params, services }) => ensAnswerResponse(services, params, ENS_GET_CACHE_CONTROL),
  }),
});
