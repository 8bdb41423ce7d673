import 'server-only';
import { fetchEncodedAccounts, type Address } from '@solana/kit';
import { and, eq, gt, max, min, sql } from 'drizzle-orm';
import { rpcCall, type SolanaRpc } from '@/lib/chain/rpc';
import { associatedTokenAddress, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '@/lib/chain/spl-token';
import type { Db } from '@/lib/db';
import { paymentReferences } from '@/lib/db/schema';

/*
 * The accounts the finding pass reads (DESIGN.md "Payments and receipts"): every payment of a
 * reference moves money into its payout account, the recipient wallet for SOL or the wallet's
 * associated token account of the mint, so reading that account's new transactions finds every
 * payment of every reference issued for it at once. Junk references add rows, not accounts.
 */

/**
 * A payment that lands just before its reference expires may be listed by the cluster a little
 * later: the account stays read this long past the last expiry (and each transaction is matched
 * only to references it landed in time for).
 */
export const READ_PAST_EXPIRY_MS = 60_000;
/** getMultipleAccounts takes at most 100 keys. */
const ACCOUNTS_PER_CALL = 100;

export interface PayoutAccount {
  /** The account whose signatures are read. */
  account: string;
  recipient: string;
  asset: string;
  /** The earliest issue among its open references: older transactions cannot pay them. */
  since: Date;
  /** The last expiry among them. */
  openUntil: Date;
}

/** The (recipient, asset) pairs that have open references, with the earliest issue of each. */
async function openPayouts(db: Db, now: Date) {
  return db
    .select({
      recipient: paymentReferences.recipient,
      asset: paymentReferences.asset,
      since: min(paymentReferences.issuedAt),
      openUntil: max(paymentReferences.expiresAt),
    })
    .from(paymentReferences)
    .where(
      and(
        eq(paymentReferences.status, 'pending'),
        gt(paymentReferences.expiresAt, new Date(now.getTime() - READ_PAST_EXPIRY_MS)),
      ),
    )
    .groupBy(paymentReferences.recipient, paymentReferences.asset)
    .orderBy(sql`min(${paymentReferences.issuedAt})`);
}

/**
 * The token program of each mint, learned once per process: an initialized mint's owner never
 * changes, and the associated token account is derived with it.
 */
const TOKEN_PROGRAM_OF = Symbol.for('identity-tag-service.payments-mint-program');
const store = globalThis as unknown as Record<typeof TOKEN_PROGRAM_OF, Map<string, Address | null> | undefined>;
const programs = (store[TOKEN_PROGRAM_OF] ??= new Map());

async function learnMintPrograms(rpc: SolanaRpc, mints: string[], spend: () => void): Promise<void> {
  const unknown = [...new Set(mints)].filter((mint) => !programs.has(mint));
  for (let i = 0; i < unknown.length; i += ACCOUNTS_PER_CALL) {
    const batch = unknown.slice(i, i + ACCOUNTS_PER_CALL);
    spend();
    const accounts = await rpcCall(() => fetchEncodedAccounts(rpc, batch as Address[], { commitment: 'confirmed' }));
    for (const [j, account] of accounts.entries()) {
      const owner = account.exists ? account.programAddress : null;
      const program = owner === TOKEN_PROGRAM_ID || owner === TOKEN_2022_PROGRAM_ID ? owner : null;
      // A mint missing now (not yet created, or closed) is asked again on the next run.
      if (program) programs.set(batch[j]!, program);
    }
  }
}

/** The payout accounts with open references at `now`; `spend` counts each RPC call made. */
export async function activePayoutAccounts(
  db: Db,
  rpc: SolanaRpc,
  now: Date,
  spend: () => void,
): Promise<PayoutAccount[]> {
  const open = await openPayouts(db, now);
  await learnMintPrograms(
    rpc,
    open.filter((p) => p.asset !== 'SOL').map((p) => p.asset),
    spend,
  );
  const accounts: PayoutAccount[] = [];
  for (const { recipient, asset, since, openUntil } of open) {
    if (since === null || openUntil === null) continue;
    if (asset === 'SOL') {
      accounts.push({ account: recipient, recipient, asset, since, openUntil });
      continue;
    }
    const program = programs.get(asset);
    if (!program) continue;
    const account = await associatedTokenAddress(recipient as Address, asset as Address, program);
    accounts.push({ account, recipient, asset, since, openUntil });
  }
  return accounts;
}
