import type { PublicKey, VersionedTransactionResponse } from '@solana/web3.js';
import { carriesIdentityMemo, isMemoProgram } from '@/lib/features/payments/pay-action-identity';

/*
 * Whether a payment was made through a transaction this service built (docs/integrators.md,
 * "Telling our payments from copies"): one of its Memo instructions is the service identity's
 * signed Action Identity memo for the reference. A wallet that copied the reference, or wrote a
 * memo without the identity's secret key, pays just the same but is not attributed.
 */
export function isAttributed(tx: VersionedTransactionResponse, reference: string, identity: PublicKey): boolean {
  const message = tx.transaction.message;
  const keys = message.getAccountKeys({ accountKeysFromLookups: tx.meta?.loadedAddresses });
  const memos = message.compiledInstructions
    .filter((ix) => {
      const program = keys.get(ix.programIdIndex);
      return program !== undefined && isMemoProgram(program);
    })
    .map((ix) => Buffer.from(ix.data).toString('utf8'));
  return carriesIdentityMemo(memos, identity, reference);
}
