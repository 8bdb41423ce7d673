'use server';

import { z } from 'zod';
import { AppError } from '@/lib/core/errors';
import { getIdentity, parseTagParam } from '@/lib/features/identity/get-identity';
import { issueReference, issueServices } from '@/lib/features/payments/issue-reference';
import { qrSvg } from '@/lib/web/server/qr-svg';
import { withAction } from '@/lib/web/server/server-action';

/**
 * The till's charge: POST /v1/payments' code path (issueReference) for the session's key, only
 * when it owns the tag, and the transfer request's QR code drawn on the server as the profile's is.
 */
export const issueCharge = withAction(
  { args: z.tuple([z.string().max(64), z.string().max(40)]), rateLimit: 'payments' },
  async ([tag, amount], { caller, services: { db, config }, now }) => {
    const identity = await getIdentity(db, parseTagParam(tag));
    if (identity.owner !== caller)
      throw new AppError('forbidden', `Only the owner of ${identity.tag} can charge for it.`);
    const issued = await issueReference(issueServices(db, config, now), {
      tag: identity.tag.slice(1),
      amount,
      asset: 'SOL',
    });
    return { reference: issued.reference, url: issued.url, qr: await qrSvg(issued.url) };
  },
);
