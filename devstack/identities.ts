import { generateKeyPairSigner } from '@solana/kit';
import { randomBytes } from 'node:crypto';
import type { Db } from '@/lib/db';
import { identities, type IdentityRow, type NewIdentityRow } from '@/lib/db/schema';
import { findTagRecordAddress } from '@/program/pda';

/** A canonical tag nobody else uses: the prefix (naming the test) and 12 hex digits. */
export function randomTag(prefix = 't_'): string {
  return `${prefix}${randomBytes(6).toString('hex')}`;
}

/** The address of `tag`'s record under the localnet's program: what the indexer writes as `pda`. */
export function recordAddressOf(tag: string): string {
  return findTagRecordAddress(tag)[0];
}

/**
 * Inserts a mirror row as if the indexer had seen its registration (its on-chain record is
 * not created): active, no profile, a random tag and owner unless overridden.
 */
export async function insertIdentity(db: Db, overrides: Partial<NewIdentityRow> = {}): Promise<IdentityRow> {
  // Any 32 bytes are an address; the mirror never checks that a key is on the curve.
  // a key on the curve, as a wallet's is: an off-curve payout wallet gets an `unsafe_payout` warning
  const owner = overrides.owner ?? (await generateKeyPairSigner()).address;
  const tag = overrides.tag ?? randomTag();
  const [row] = await db
    .insert(identities)
    .values({
      tag,
      pda: recordAddressOf(tag),
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
