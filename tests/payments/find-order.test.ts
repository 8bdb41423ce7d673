import { Connection, Keypair } from '@solana/web3.js';
import { describe, expect, inject, it } from 'vitest';
import { paymentReferences } from '@/lib/db/schema';
import { findPayments, readPaymentsStatus } from '@/lib/features/payments/find-payments';
import { ownDatabase } from '../support/database';

/*
 * Which open references a bounded run looks up (lib/features/payments/find-payments.ts): never
 * looked up first, then the young before the old, and none past 24 hours; and the operator's
 * figures of what is open.
 */

const database = ownDatabase();
const connection = new Connection(inject('rpcUrl'), 'confirmed');
const NOW = new Date();
/** Attribution plays no part in which references are looked up. */
const IDENTITY = Keypair.generate().publicKey;
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

function reference(issuedAt: Date, checkedAt: Date | null) {
  return {
    reference: Keypair.generate().publicKey.toBase58(),
    tag: 'shop',
    recipient: Keypair.generate().publicKey.toBase58(),
    amount: '1',
    asset: 'SOL',
    decimals: 9,
    issuedAt,
    checkedAt,
  };
}

describe('the finding pass, bounded', () => {
  it('looks up the never looked up, then the young before the old, and never one past 24 hours', async () => {
    const { db } = database;
    const old = reference(ago(20 * HOUR), ago(HOUR)); // due again at about 4 h after its last look-up
    const young = reference(ago(2 * MINUTE), ago(30_000)); // due again within seconds
    const fresh = reference(ago(1_000), null);
    const expired = reference(ago(25 * HOUR), null);
    await db.insert(paymentReferences).values([old, young, fresh, expired]);

    expect(await readPaymentsStatus(db, NOW)).toEqual({
      open: 3,
      oldestOpenIssuedAt: old.issuedAt.toISOString(),
      lagSeconds: 3600,
    });

    const first = await findPayments({ db, connection, now: NOW, identity: IDENTITY, limit: 1 });
    expect(first).toMatchObject({ checked: 1, rpcCalls: 1, changed: [] });
    const second = await findPayments({ db, connection, now: NOW, identity: IDENTITY, limit: 1 });
    expect(second.checked).toBe(1);

    const rows = new Map(
      (await db.select().from(paymentReferences)).map((r) => [r.reference, r.checkedAt?.getTime() ?? null]),
    );
    expect(rows.get(fresh.reference)).toBe(NOW.getTime());
    expect(rows.get(young.reference)).toBe(NOW.getTime());
    expect(rows.get(old.reference)).toBe(old.checkedAt!.getTime());
    expect(rows.get(expired.reference)).toBeNull();
  });
});
