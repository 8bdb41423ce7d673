import {
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  getTransactionDecoder,
  type Rpc,
  type Signature,
  type SolanaRpcApi,
} from '@solana/kit';
import { errorOf } from './errors';
import type { TagApi } from './http';
import type { components } from './schema';
import type { BuiltKitTransaction, TagSigner } from './signer';

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
 * is sent and confirmed on the caller's own RPC endpoint, and `POST /v1/sync` brings the
 * service's mirror up to date (it answers 202 until the cluster finalizes; this waits).
 */
export async function signSendAndSync(
  api: TagApi,
  rpc: Rpc<SolanaRpcApi>,
  signer: TagSigner,
  built: BuiltTransaction,
  options: SendOptions = {},
): Promise<Landed> {
  let transaction = getTransactionDecoder().decode(base64ToBytes(built.transaction)) as BuiltKitTransaction;
  for (const each of [signer, ...(options.cosigners ?? [])]) transaction = await each.signTransaction(transaction);
  const signature = getSignatureFromTransaction(transaction);
  await rpc
    .sendTransaction(getBase64EncodedWireTransaction(transaction), {
      encoding: 'base64',
      preflightCommitment: 'confirmed',
    })
    .send();
  await confirmed(rpc, signature, BigInt(built.lastValidBlockHeight));
  return { signature, identity: await syncUntilFinal(api, signature, options.syncTimeoutMs ?? 60_000) };
}

const CONFIRM_POLL_MS = 250;

/** Waits until the cluster confirms `signature`, or until its blockhash expires (then it can never land). */
async function confirmed(rpc: Rpc<SolanaRpcApi>, signature: Signature, lastValidBlockHeight: bigint): Promise<void> {
  for (;;) {
    const [status] = (await rpc.getSignatureStatuses([signature]).send()).value;
    // The cause is the cluster's error itself: `tagRegistryErrorOf(err)` reads the program's code from it.
    if (status?.err)
      throw new Error(`The transaction failed on chain: ${JSON.stringify(status.err, bigintsAsNumbers)}`, {
        cause: status.err,
      });
    if (status?.confirmationStatus === 'confirmed' || status?.confirmationStatus === 'finalized') return;
    if (!status && (await rpc.getBlockHeight({ commitment: 'confirmed' }).send()) > lastValidBlockHeight)
      throw new Error(`The transaction ${signature} expired before it landed.`);
    await new Promise((resolve) => setTimeout(resolve, CONFIRM_POLL_MS));
  }
}

const bigintsAsNumbers = (_key: string, value: unknown) => (typeof value === 'bigint' ? Number(value) : value);

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
