import { Connection, Transaction } from '@solana/web3.js';
import { errorOf } from './errors';
import type { TagApi } from './http';
import type { components } from './schema';
import type { TagSigner } from './signer';

export type Identity = components['schemas']['Identity'];

/** What every builder answers: an unsigned transaction and how long its blockhash lives. */
export interface BuiltTransaction {
  transaction: string;
  lastValidBlockHeight: string;
}

export interface Landed {
  signature: string;
  /** The identity as the service mirrors it now; null once the tag is gone (released). */
  identity: Identity | null;
}

export interface SendOptions {
  /** Signers after the owner (a sponsor that pays the fee signs last; nobody changes the message between). */
  cosigners?: TagSigner[];
  /** How long to wait for the service to see the transaction finalized. */
  syncTimeoutMs?: number;
}

/**
 * The steps after a builder answered: the signer (then each cosigner) signs, the transaction
 * is sent and confirmed on the caller's own connection, and `POST /v1/sync` brings the
 * service's mirror up to date (it answers 202 until the cluster finalizes; this waits).
 */
export async function signSendAndSync(
  api: TagApi,
  connection: Connection,
  signer: TagSigner,
  built: BuiltTransaction,
  options: SendOptions = {},
): Promise<Landed> {
  let transaction = Transaction.from(base64ToBytes(built.transaction));
  for (const each of [signer, ...(options.cosigners ?? [])]) transaction = await each.signTransaction(transaction);
  const signature = await connection.sendRawTransaction(transaction.serialize());
  const blockhash = transaction.recentBlockhash!;
  const confirmation = await connection.confirmTransaction(
    { signature, blockhash, lastValidBlockHeight: Number(built.lastValidBlockHeight) },
    'confirmed',
  );
  // The cause is the cluster's error itself: `tagRegistryErrorOf(err)` reads the program's code from it.
  if (confirmation.value.err)
    throw new Error(`The transaction failed on chain: ${JSON.stringify(confirmation.value.err)}`, {
      cause: confirmation.value.err,
    });
  return { signature, identity: await syncUntilFinal(api, signature, options.syncTimeoutMs ?? 60_000) };
}

async function syncUntilFinal(api: TagApi, signature: string, timeoutMs: number): Promise<Identity | null> {
  const deadline = Date.now() + timeoutMs;
  for (let wait = 250; ; wait = Math.min(wait * 2, 2_000)) {
    const { data, error, response } = await api.POST('/v1/sync', { body: { signature } });
    if (response.status === 200) return data as Identity;
    if (response.status === 404) return null; // released (or blocked): the tag answers 404 now
    if (response.status !== 202) throw errorOf(response.status, error);
    if (Date.now() + wait > deadline)
      throw new Error(`The transaction ${signature} was not finalized within ${timeoutMs} ms.`);
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}
