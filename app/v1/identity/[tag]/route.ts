// GET /v1/identity/{tag} — the public identity (SPEC 4.3); PATCH — the owner edits its profile (SPEC 4.4)
import { getChain } from '@/lib/chain/rpc';
import { ANOTHER_KEYS_TAG, MISSING_OR_BLOCKED, ok, tagPath } from '@/lib/http/docs';
import { publicTagRead } from '@/lib/http/public-tag-read';
import { v1Operation, v1Route } from '@/lib/http/v1-route';
import { getIdentityAtSlot, parseTagParam } from '@/lib/features/identity/get-identity';
import { Identity, ProfilePatch } from '@/lib/features/identity/schemas';
import { ownerOnChain } from '@/lib/features/identity/owner-on-chain';
import { keepableToken } from '@/lib/features/identity/keepable-token';
import { updateProfile } from '@/lib/features/identity/update-profile';

export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/identity/{tag}', {
  GET: v1Operation({
    operationId: 'getIdentity',
    tags: ['identity'],
    summary: 'Read an identity',
    description: 'Public and cacheable. A missing and a blocked tag give the same 404.',
    ...publicTagRead('The identity', Identity, getIdentityAtSlot),
  }),
  PATCH: v1Operation({
    operationId: 'updateProfile',
    tags: ['identity'],
    summary: "Edit the caller's own profile",
    description:
      'Checks, in order: token (401), tag format and body (400), existence (404, also for blocked tags), ownership (403). ' +
      'An omitted key is left as it is; `null` clears the field; `tag`, `owner`, `wallet`, `verified` and `merchant` are refused.',
    rateLimit: 'profile',
    bearer: true,
    callerRateLimit: 'profileKey',
    params: ({ tag }) => ({ tag: parseTagParam(tag) }), // SPEC 4.4 rule 4: the tag's format is judged before the body is read
    body: { schema: ProfilePatch },
    requestParams: tagPath,
    responses: { 200: ok('The updated identity', Identity) },
    errors: {
      400:
        'Malformed tag or body (not an object, unknown or non-editable key, wrong type, over a limit); ' +
        '`unsupported_asset` for a `preferredToken` whose Token-2022 mint has an extension that can take, withhold or freeze ' +
        'a payment (`reason`: `permanent_delegate`, `transfer_fee`, `transfer_hook`, `default_account_state_frozen`, ' +
        '`non_transferable`, `pausable`)',
      403: ANOTHER_KEYS_TAG,
      404: MISSING_OR_BLOCKED,
    },
    handler: async (_req, { params: { tag }, body: patch, caller, services: { db, config } }) =>
      updateProfile(
        db,
        { tag, caller, patch },
        new Date(),
        ownerOnChain(getChain(config)),
        keepableToken(getChain(config), config.solana.cluster),
      ),
  }),
});
