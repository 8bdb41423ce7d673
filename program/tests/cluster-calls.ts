/**
 * The program tests' calls to a real cluster (a localnet over JSON-RPC) on kit: a signed
 * legacy transaction sent and confirmed through the deploy commands' Cluster (a preflight
 * refusal throws its TransactionFailed, logs included), and the logs of one that landed.
 */
import { createSolanaRpc, type Instruction, type Signature } from '@solana/kit';
import type { Cluster } from '@/program/deploy/cluster';
import type { Signer } from '@/program/deploy/keys';
import { signedTransaction } from '@/program/deploy/loader-v3';

/** Sends `instructions`, `payer` paying and signing with `signers`, and waits until confirmed; the signature. */
export async function sendToCluster(
  cluster: Cluster,
  payer: Signer,
  instructions: Instruction[],
  signers: Signer[] = [],
): Promise<string> {
  const recent = await cluster.latestBlockhash();
  return cluster.sendAndConfirm(
    signedTransaction(instructions, payer.address, recent, [payer, ...signers]),
    recent.lastValidBlockHeight,
  );
}

/** The log lines of a confirmed transaction (none when the cluster does not know it). */
export async function logsOf(url: string, signature: string): Promise<string[]> {
  const landed = await createSolanaRpc(url)
    .getTransaction(signature as Signature, {
      commitment: 'confirmed',
      encoding: 'json',
      maxSupportedTransactionVersion: 0,
    })
    .send();
  return [...(landed?.meta?.logMessages ?? [])];
}
