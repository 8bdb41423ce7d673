import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionInstruction,
} from '@solana/web3.js';
import { MEMO_PROGRAM_ID } from '@/lib/features/payments/pay-action-identity';

/** A fresh key with 1 SOL of the localnet's. */
export async function fundedPayer(connection: Connection): Promise<Keypair> {
  const payer = Keypair.generate();
  const signature = await connection.requestAirdrop(payer.publicKey, LAMPORTS_PER_SOL);
  await connection.confirmTransaction({ signature, ...(await connection.getLatestBlockhash()) });
  return payer;
}

/**
 * Pays as a wallet does from a Solana Pay transfer request: `lamports` to `to`, the reference a
 * read-only key of the transfer, and `memo` in a Memo instruction when given. Throws if it fails.
 */
export async function payWithReference(
  connection: Connection,
  payer: Keypair,
  { to, lamports, reference, memo }: { to: PublicKey; lamports: number | bigint; reference: string; memo?: string },
): Promise<string> {
  const transfer = SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports });
  transfer.keys.push({ pubkey: new PublicKey(reference), isSigner: false, isWritable: false });
  const latest = await connection.getLatestBlockhash();
  const tx = new Transaction({ feePayer: payer.publicKey, ...latest }).add(transfer);
  if (memo) tx.add(new TransactionInstruction({ programId: MEMO_PROGRAM_ID, keys: [], data: Buffer.from(memo) }));
  tx.sign(payer);
  const signature = await connection.sendRawTransaction(tx.serialize());
  const { value } = await connection.confirmTransaction({ signature, ...latest }, 'confirmed');
  if (value.err) throw new Error(`the payment failed: ${JSON.stringify(value.err)}`);
  return signature;
}
