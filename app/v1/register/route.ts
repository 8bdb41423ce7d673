// POST /v1/register — tag → the UNSIGNED register_tag transaction to sign and submit (SPEC 4.5)
import { corsPreflight, withCors } from '@/lib/api/cors';
import { routeMethods } from '@/lib/api/methods';
import { json, withApi, withBearer, withRateLimit } from '@/lib/api/handler';
import { parseWith } from '@/lib/api/parse';
import { readJson } from '@/lib/api/read-json';
import { getChain } from '@/lib/chain/rpc';
import { buildRegisterTransaction } from '@/lib/registry/build-register-transaction';
import { RegisterRequest } from '@/lib/registry/schemas';

export const POST = withCors(
  withApi(
    withRateLimit(
      'register',
      withBearer(async (req, { caller, services: { db, config } }) => {
        const request = parseWith(RegisterRequest, await readJson(req, 4096));
        const { connection, programId } = getChain(config);
        return json(await buildRegisterTransaction({ db, connection, programId, owner: caller, request, priorityFee: config.priorityFee }));
      }),
    ),
  ),
);

export const OPTIONS = corsPreflight(['POST']);

export const { GET, HEAD, PUT, PATCH, DELETE } = routeMethods({ POST, OPTIONS });
