import { AccountRole, lamports as asLamports, type Address, type Instruction, type KeyPairSigner } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { createKitClient, RPC_TIMEOUT_MS, type SolanaRpc } from '@/lib/chain/rpc';
import type { FindingCluster } from '@/lib/features/payments/read-payout-account';
import { MEMO_PROGRAM_ID } from '@/lib/features/payments/pay-action-identity';
import { fundedSigner, reachAll, sendSigned } from '../support/chain';

/** The cluster at `rpcUrl` as the finding pass reads it (lib/features/payments/find-payments.ts). */
export function findingAt(rpcUrl: string): FindingCluster {
  return createKitClient(rpcUrl, RPC_TIMEOUT_MS);
}

/** A fresh key with 1 SOL of the localnet's. */
export function fundedPayer(rpc: SolanaRpc): Promise<KeyPairSigner> {
  return fundedSigner(rpc, 1);
}

/**
 * Pays as a wallet does from a Solana Pay transfer request: `lamports` to `to`, the reference a
 * read-only key of the transfer, and `memo` in a Memo instruction when given. Throws if it fails.
 */
export async function payWithReference(
  rpc: SolanaRpc,
  payer: KeyPairSigner,
  { to, lamports, reference, memo }: { to: Address; lamports: number | bigint; reference: string; memo?: string },
): Promise<string> {
  const transfer = getTransferSolInstruction({ source: payer, destination: to, amount: asLamports(BigInt(lamports)) });
  const withReference = {
    ...transfer,
    accounts: [...transfer.accounts, { address: reference as Address, role: AccountRole.READONLY }],
  };
  const memoInstruction = memo
    ? [{ programAddress: MEMO_PROGRAM_ID, accounts: [], data: new TextEncoder().encode(memo) }]
    : [];
  const signature = await sendSigned(rpc, [withReference, ...memoInstruction], payer);
  await reachAll(rpc, [signature], 'confirmed', 60_000, { refuseFailed: true });
  return signature;
}

/**
 * `instruction` with `signer` in place of the no-op signer the service's builders put for its
 * address (the service never signs): what a wallet signing the built instructions does.
 */
export function withSigner(instruction: Instruction, signer: KeyPairSigner): Instruction {
  return {
    ...instruction,
    accounts: instruction.accounts?.map((account) =>
      account.address === signer.address && 'signer' in account ? { ...account, signer } : account,
    ),
  };
}
