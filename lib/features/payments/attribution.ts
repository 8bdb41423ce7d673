import type { Address } from '@solana/kit';
import bs58 from 'bs58';
import { carriesIdentityMemo, isMemoProgram } from '@/lib/features/payments/pay-action-identity';
import { accountKeysOf, type PaymentTransaction } from './validate-transfer';

/*
 * Whether a payment was made through a transaction this service built (docs/integrators.md,
 * "Telling our payments from copies"): one of its Memo instructions is the service identity's
 * signed Action Identity memo for the reference. A wallet that copied the reference, or wrote a
 * memo without the identity's secret key, pays just the same but is not attributed.
 */
export function isAttributed(tx: PaymentTransaction, reference: string, identity: Address): boolean {
  const keys = accountKeysOf(tx);
  const memos = tx.transaction.message.instructions
    .filter((ix) => {
      const program = keys[ix.programIdIndex];
      return program !== undefined && isMemoProgram(program);
    })
    // getTransaction's `json` encoding gives instruction data in base58.
    .map((ix) => Buffer.from(bs58.decode(ix.data)).toString('utf8'));
  return carriesIdentityMemo(memos, identity, reference);
}
