// GET /v1/reverse/{address} — address → its primary tag (or the oldest it is the payout wallet of)
import { z } from 'zod';
import { publicReadAtSlot } from '@/lib/http/conditional';
import { indexedSlotHeaders } from '@/lib/http/indexed-slot';
import { conditionalPathRead } from '@/lib/http/docs';
import { v1Operation, v1Route } from '@/lib/http/v1-route';
import { getChain } from '@/lib/chain/rpc';
import { reverseLookup, reverseNotFound } from '@/lib/features/integrations/reverse-lookup';
import { AddressPathParam, ReverseLookup } from '@/lib/features/integrations/schemas';

export const dynamic = 'force-dynamic';

const ReversePath = z.object({ address: AddressPathParam });

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/reverse/{address}', {
  GET: v1Operation({
    operationId: 'reverseLookup',
    tags: ['integrators'],
    summary: 'An address → its tag',
    description:
      'The primary tag of the address as owner (its choice while it still owns the tag and the tag is live, else its oldest ' +
      'active tag); when it owns none, the oldest active tag it is the payout wallet of. Public and cacheable.',
    ...conditionalPathRead(ReversePath, 'The address’s tag', ReverseLookup, {
      400: 'Malformed address',
      404: 'No tag for this address; `reason` says why: `no_tag`, `primary_not_owned`, `blocked`, `not_indexed`',
    }),
    handler: async (req, { params: { address }, services: { db, config } }) => {
      const { value, indexedSlot } = await reverseLookup(
        { db, programAddress: getChain(config).programAddress },
        address,
        new Date(),
      );
      if ('reason' in value) throw reverseNotFound(value.reason).withHeaders(indexedSlotHeaders(indexedSlot));
      return publicReadAtSlot(req, { value, indexedSlot });
    },
  }),
});
