import type { Connection, PublicKey } from '@solana/web3.js';
import { AppError } from '@/lib/api/errors';
import { rpcCall } from '@/lib/chain/rpc';
import type { Db } from '@/lib/db';
import { tagNotFound } from '@/lib/identity/get-identity';
import { toIdentity } from '@/lib/identity/identity-response';
import { findActiveIdentity } from '@/lib/identity/queries';
import type { Identity } from '@/lib/identity/schemas';
import { applyRegistrations } from './apply-registration';
import {
  extractRegistrations,
  MAX_SUPPORTED_TRANSACTION_VERSION,
  type Registration,
  type TransactionForIndexing,
} from './extract-registrations';

export type SyncResult = { status: 'indexed'; identity: Identity } | { status: 'pending' };

export interface SyncRegistrationInput {
  db: Db;
  connection: Connection;
  programId: PublicKey;
  signature: string;
  now: Date;
}

/**
 * POST /v1/sync (DESIGN "Indexer"): indexes one transaction now, read from the chain (the
 * caller is not trusted), through the cron run's own extract/apply. Finalized and a
 * successful register_tag of ours → `indexed` with the identity (the first registration's);
 * seen only at `confirmed` → `pending` (202); unknown to the cluster → 404 (it may not have
 * landed yet: try again); failed, or no register_tag of ours → 422. A reserved tag that
 * landed anyway is mirrored as blocked and answers the identity 404, as GET does.
 * Does not move the indexer's cursor: the next cron run passes over it (ON CONFLICT).
 */
export async function syncRegistration({ db, connection, programId, signature, now }: SyncRegistrationInput): Promise<SyncResult> {
  const finalized = await getTransaction(connection, signature, 'finalized');
  if (!finalized) {
    const confirmed = await getTransaction(connection, signature, 'confirmed');
    if (!confirmed) throw new AppError('not_found', 'The cluster knows no transaction with this signature (yet).');
    registrationsOf(confirmed, programId);
    return { status: 'pending' };
  }
  const registrations = registrationsOf(finalized, programId);
  await applyRegistrations(db, registrations, now);
  const row = await findActiveIdentity(db, registrations[0]!.tag);
  if (!row) throw tagNotFound();
  return { status: 'indexed', identity: toIdentity(row) };
}

function getTransaction(connection: Connection, signature: string, commitment: 'confirmed' | 'finalized') {
  return rpcCall(() =>
    connection.getTransaction(signature, { commitment, maxSupportedTransactionVersion: MAX_SUPPORTED_TRANSACTION_VERSION }),
  );
}

/** The transaction's registrations; 422 when it failed or has none of ours. */
function registrationsOf(tx: TransactionForIndexing, programId: PublicKey): Registration[] {
  if (tx.meta?.err) throw new AppError('unprocessable', 'The transaction failed on chain: it registered nothing.');
  let registrations: Registration[];
  try {
    registrations = extractRegistrations(tx, programId);
  } catch (err) {
    console.error('sync: cannot decode transaction', err);
    registrations = [];
  }
  if (registrations.length === 0) {
    throw new AppError('unprocessable', 'The transaction is not a register_tag of the tag registry.');
  }
  return registrations;
}
