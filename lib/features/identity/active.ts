import { eq } from 'drizzle-orm';
import { identities, type IdentityRow } from '@/lib/db/schema';

/*
 * What "active" means, decided here (SPEC 3.1): a mirror row is answered only while its status
 * is `active`; a blocked row reads as missing everywhere. The same rule in the three forms the
 * code needs: a drizzle condition, a test on a row in hand, the SQL text of the prepared
 * statements written by hand.
 */

const ACTIVE = 'active' satisfies IdentityRow['status'];

/** The condition of a drizzle query on `identities`. */
export const isActiveIdentity = eq(identities.status, ACTIVE);

/** Whether a row read whatever its status is active (null and undefined are not). */
export function isActiveRow<R extends Pick<IdentityRow, 'status'>>(row: R | null | undefined): row is R {
  return row?.status === ACTIVE;
}

/** The condition as SQL text, for `identities` under `alias` (hand-written prepared statements). */
export function activeIdentitySql(alias?: string): string {
  return `${alias ? `${alias}.` : ''}status = '${ACTIVE}'`;
}
