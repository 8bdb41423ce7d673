import { createKeyPairSignerFromBytes, type KeyPairSigner } from '@solana/kit';
import { randomBytes } from 'node:crypto';
import { randomTag, recordAddressOf } from '@/devstack/identities';
import type { SolanaRpc } from '@/lib/chain/rpc';
import type { Db } from '@/lib/db';
import { identities, type IdentityRow, type NewIdentityRow } from '@/lib/db/schema';
import { airdrop, newSigner, registerOnChain } from './chain';

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
  owner: KeyPairSigner;
  /** The payout wallet's key: the owner's unless one was given. */
  wallet: KeyPairSigner;
}

/** A key pair as tests hold one: a kit signer, or any 64-byte secret key (a test key pair, a web3.js Keypair). */
export type PayeeKey = KeyPairSigner | { secretKey: Uint8Array };

export interface PayeeOptions {
  /** The payout wallet: it signs the registration, as the program asks. */
  wallet?: PayeeKey;
  /** The owner: a fresh funded key unless given (given keys must hold SOL for the fee and rent). */
  owner?: PayeeKey;
  /** Columns of the mirror row beyond what the record dictates (a profile, flags). */
  row?: Omit<Partial<NewIdentityRow>, 'tag' | 'owner' | 'wallet' | 'pda'> & { tag?: string };
}

const signerOfKey = (key: PayeeKey): Promise<KeyPairSigner> =>
  'keyPair' in key ? Promise.resolve(key) : createKeyPairSignerFromBytes(key.secretKey);

export async function registeredPayee(
  db: Db,
  rpc: SolanaRpc,
  { wallet, owner, row = {} }: PayeeOptions = {},
): Promise<RegisteredPayee> {
  const ownerSigner = owner ? await signerOfKey(owner) : (await newSigner()).signer;
  if (!owner) await airdrop(rpc, ownerSigner.address, 1);
  const walletSigner = wallet ? await signerOfKey(wallet) : ownerSigner;
  const tag = row.tag ?? randomTag('pay_');
  await registerOnChain(rpc, ownerSigner, tag, walletSigner);
  const mirrored = { ...row, owner: ownerSigner.address, wallet: walletSigner.address };
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
  return { row: inserted!, tag, owner: ownerSigner, wallet: walletSigner };
}
