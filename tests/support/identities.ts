import { randomBytes } from 'node:crypto';
import type { Db } from '@/lib/db';
import { identities, type IdentityRow, type NewIdentityRow } from '@/lib/db/schema';
import { newKeypair } from './sign-in';

/** A canonical tag nobody else uses: `t_` and 12 hex digits. */
export function randomTag(): string {
  return `t_${randomBytes(6).toString('hex')}`;
}

/**
 * Inserts a mirror row as if the indexer had seen its registration (its on-chain record is
 * not created): active, no profile, a random tag and owner unless overridden.
 */
export async function insertIdentity(db: Db, overrides: Partial<NewIdentityRow> = {}): Promise<IdentityRow> {
  const owner = overrides.owner ?? newKeypair().publicKey;
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
