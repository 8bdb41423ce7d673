import { Keypair, type Connection } from '@solana/web3.js';
import { randomBytes } from 'node:crypto';
import { randomTag, recordAddressOf } from '@/devstack/identities';
import type { Db } from '@/lib/db';
import { identities, type IdentityRow, type NewIdentityRow } from '@/lib/db/schema';
import { confirmed, fund, registerDirect } from './chain';

/*
 * A tag that can be paid: every route that hands out a payment request reads the tag's record
 * and payout account on chain first (DESIGN.md "Payments and receipts", "Truth at issue
 * time"), so a mirror row alone is a tag with no record (404). This registers the tag on the
 * cluster, then writes its mirror row as the indexer would (without waiting for it).
 */

export interface RegisteredPayee {
  row: IdentityRow;
  tag: string;
  /** The owner's key (funded, and the registration's fee payer). */
  owner: Keypair;
  /** The payout wallet's key: the owner's unless one was given. */
  wallet: Keypair;
}

export interface PayeeOptions {
  /** The payout wallet: it signs the registration, as the program asks. */
  wallet?: Keypair;
  /** The owner: a fresh funded key unless given (given keys must hold SOL for the fee and rent). */
  owner?: Keypair;
  /** Columns of the mirror row beyond what the record dictates (a profile, flags). */
  row?: Omit<Partial<NewIdentityRow>, 'tag' | 'owner' | 'wallet' | 'pda'> & { tag?: string };
}

export async function registeredPayee(
  db: Db,
  connection: Connection,
  { wallet, owner, row = {} }: PayeeOptions = {},
): Promise<RegisteredPayee> {
  const ownerKey = owner ?? Keypair.generate();
  if (!owner) await fund(connection, ownerKey.publicKey, 1);
  const walletKey = wallet ?? ownerKey;
  const tag = row.tag ?? randomTag('pay_');
  await confirmed(connection, await registerDirect(connection, ownerKey, tag, walletKey));
  const mirrored = { ...row, owner: ownerKey.publicKey.toBase58(), wallet: walletKey.publicKey.toBase58() };
  // Another file's indexer run on the shared database may have mirrored it first: then the profile is added.
  const [inserted] = await db
    .insert(identities)
    .values({
      tag,
      pda: recordAddressOf(tag),
      createdAt: new Date(),
      signature: randomBytes(32).toString('hex'),
      slot: 42n,
      ...mirrored,
    })
    .onConflictDoUpdate({ target: identities.tag, set: mirrored })
    .returning();
  return { row: inserted!, tag, owner: ownerKey, wallet: walletKey };
}
