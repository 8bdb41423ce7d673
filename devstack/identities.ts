import { randomBytes } from 'node:crypto';
import bs58 from 'bs58';
import type { Db } from '@/lib/db';
import { identities, type IdentityRow, type NewIdentityRow } from '@/lib/db/schema';

/** A canonical tag nobody else uses: the prefix (naming the test) and 12 hex digits. */
export function randomTag(prefix = 't_'): string {
  return `${prefix}${randomBytes(6).toString('hex')}`;
}

/**
 * Inserts a mirror row as if the indexer had seen its registration (its on-chain record is
 * not created): active, no profile, a random tag and owner unless overridden.
 */
export async function insertIdentity(db: Db, overrides: Partial<NewIdentityRow> = {}): Promise<IdentityRow> {
  // Any 32 bytes are an address; the mirror never checks that a key is on the curve.
  const owner = overrides.owner ?? bs58.encode(randomBytes(32));
  const [row] = await db
    .insert(identities)
    .values({
      tag: randomTag(),
      owner,
      wallet: owner,
      createdAt: new Date(),
      signature: randomBytes(32).toString('hex'),
      slot: 42n,
      ...overrides,
    })
    .returning();
  return row;
}
