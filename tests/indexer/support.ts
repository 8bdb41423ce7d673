import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  Transaction,
  type TransactionInstruction,
} from '@solana/web3.js';
import { TEST_CRON_SECRET } from '@/devstack/app';
import { LOCALNET_PROGRAM_ID } from '@/packages/tag-registry/src';
import { registerTagInstruction } from '@/packages/tag-registry/src/web3js';
import { clientHeaders, readResponse } from '../support/http';
import { newKeypair, type TestKeypair } from '../support/keypair';
import { signIn } from '../support/sign-in';

export const PROGRAM_ID = new PublicKey(LOCALNET_PROGRAM_ID);

export function web3Keypair(kp: TestKeypair): Keypair {
  return Keypair.fromSecretKey(kp.secretKey);
}

export function connect(rpcUrl: string): Connection {
  return new Connection(rpcUrl, 'confirmed');
}

/** Airdrops SOL and waits until the cluster confirms it. */
export async function fund(connection: Connection, key: PublicKey, sol = 10): Promise<void> {
  const signature = await connection.requestAirdrop(key, sol * LAMPORTS_PER_SOL);
  await confirmed(connection, signature);
}

/** A wallet signed in to the app and funded on its chain: its session token, its keys as the tests and as web3.js hold them, its address. */
export interface Party {
  token: string;
  keypair: TestKeypair;
  signer: Keypair;
  key: string;
}

export async function fundedParty(appUrl: string, connection: Connection, sol?: number): Promise<Party> {
  const { token, keypair } = await signIn(appUrl, newKeypair());
  const signer = web3Keypair(keypair);
  await fund(connection, signer.publicKey, sol);
  return { token, keypair, signer, key: keypair.publicKey };
}

/** Waits until the signature reaches `commitment` (polls getSignatureStatuses). */
export async function confirmed(
  connection: Connection,
  signature: string,
  commitment: 'confirmed' | 'finalized' = 'confirmed',
  timeoutMs = 30_000,
): Promise<void> {
  await allReach(connection, [signature], commitment, timeoutMs);
}

export async function allReach(
  connection: Connection,
  signatures: string[],
  commitment: 'confirmed' | 'finalized',
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let waiting = [...signatures];
  while (waiting.length > 0) {
    const still: string[] = [];
    for (let i = 0; i < waiting.length; i += 256) {
      const chunk = waiting.slice(i, i + 256);
      const { value } = await connection.getSignatureStatuses(chunk, { searchTransactionHistory: true });
      value.forEach((status, j) => {
        const reached =
          status &&
          (status.confirmationStatus === 'finalized' ||
            (commitment === 'confirmed' && status.confirmationStatus === 'confirmed'));
        if (!reached) still.push(chunk[j]!);
      });
    }
    waiting = still;
    if (waiting.length === 0) return;
    if (Date.now() > deadline) throw new Error(`${waiting.length} signatures did not reach ${commitment}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Signs with every signer (fee payer first) and sends; returns the signature. */
export async function sendInstructions(
  connection: Connection,
  instructions: TransactionInstruction[],
  signers: Keypair[],
  opts: { skipPreflight?: boolean } = {},
): Promise<string> {
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash('confirmed');
  const tx = new Transaction({ feePayer: signers[0]!.publicKey, blockhash, lastValidBlockHeight }).add(...instructions);
  tx.sign(...signers);
  return connection.sendRawTransaction(tx.serialize(), { skipPreflight: opts.skipPreflight ?? false });
}

/** A register_tag sent straight to the cluster (not through the API), owner paying; a payout wallet of its own signs too. */
export function registerDirect(
  connection: Connection,
  owner: Keypair,
  tag: string,
  wallet: Keypair = owner,
): Promise<string> {
  const instruction = registerTagInstruction({
    programId: PROGRAM_ID,
    tag,
    owner: owner.publicKey,
    wallet: wallet.publicKey,
    feePayer: owner.publicKey,
  });
  return sendInstructions(connection, [instruction], wallet === owner ? [owner] : [owner, wallet]);
}

/**
 * `count` registrations sent with a few in flight, all by `owner`; resolves with
 * `{ tag, signature }` in sending order once every one is finalized.
 */
export async function registerMany(
  connection: Connection,
  owner: Keypair,
  count: number,
  prefix: string,
  inFlight = 8,
): Promise<{ tag: string; signature: string }[]> {
  const sent: { tag: string; signature: string }[] = new Array(count);
  let next = 0;
  let latest = await connection.getLatestBlockhash('confirmed');
  let latestAt = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      // Every transaction is a block on localnet, and a blockhash lives 150 blocks.
      if (i - latestAt >= 100) {
        latest = await connection.getLatestBlockhash('confirmed');
        latestAt = i;
      }
      const tag = `${prefix}${i}`;
      const tx = new Transaction({ feePayer: owner.publicKey, ...latest }).add(
        registerTagInstruction({
          programId: PROGRAM_ID,
          tag,
          owner: owner.publicKey,
          wallet: owner.publicKey,
          feePayer: owner.publicKey,
        }),
      );
      tx.sign(owner);
      sent[i] = { tag, signature: await connection.sendRawTransaction(tx.serialize(), { skipPreflight: true }) };
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  await allReach(
    connection,
    sent.map((s) => s.signature),
    'finalized',
  );
  return sent;
}

export function cron(appUrl: string, authorization: string | null = `Bearer ${TEST_CRON_SECRET}`): Promise<Response> {
  return fetch(`${appUrl}/api/cron/indexer`, { headers: authorization === null ? {} : { authorization } });
}

/**
 * Calls the cron route until a run of its own completes: on the shared app another test's
 * run may hold the lock, and then this call is answered `skipped` at once.
 */
export async function runCron(appUrl: string): Promise<{ status: string; indexed: number; processed: number }> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const res = await cron(appUrl);
    if (res.status !== 200) throw new Error(`cron: ${res.status} ${await res.text()}`);
    const summary = await res.json();
    if (summary.status === 'completed') return summary;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('cron: every run was skipped');
}

export async function postAuthed(url: string, token: string | null, body: unknown, headers = clientHeaders()) {
  const res = await fetch(url, {
    method: 'POST',
    headers: token ? { ...headers, authorization: `Bearer ${token}` } : headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const answer = await readResponse(res);
  // Callers read fields of the body directly.
  return { ...answer, json: answer.json as any };
}

export function getIdentity(appUrl: string, tag: string): Promise<Response> {
  return fetch(`${appUrl}/v1/identity/${tag}`, { cache: 'no-store' });
}
