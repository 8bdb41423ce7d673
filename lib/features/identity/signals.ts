import { getTableColumns, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '@/lib/db';
import { identities, type IdentityRow } from '@/lib/db/schema';
import type { AtSlot } from '@/lib/db/indexed-slot';
import { MAX_LOOKALIKES } from './lookalikes';
import { payerWarnings, payoutFindingOf, PAYER_WARNING_CODES } from './payer-warnings';
import type { UnsafePayoutReason } from '@/lib/chain/payout-safety';
import { displayTag } from '@/lib/core/tag';
import { activeIdentitySql, activeTagsAtSlot } from './active';

/*
 * GET /v1/identity/{tag}/signals (docs/integrators.md, "Signals for payers"): what a payment app weighs
 * before sending money, beside the identity object (which keeps exactly SPEC 2.1's fields).
 */

const Timestamp = z
  .string()
  .meta({ description: 'ISO 8601 UTC with milliseconds', example: '2026-11-20T10:00:00.000Z' });

export const Signals = z
  .object({
    tag: z.string().meta({ example: '@alice' }),
    registeredAt: Timestamp.meta({
      description: 'When the tag was registered: the record’s `registered_at` (the chain’s clock).',
    }),
    ownerSince: Timestamp.meta({
      description:
        'When the current owner got the tag: the block time of the landed transaction that made it the owner (the registration, or an accepted transfer).',
    }),
    walletSince: Timestamp.meta({
      description:
        'When the payout wallet became the current one: the block time of the landed transaction that set it.',
    }),
    verified: z.boolean(),
    merchant: z.boolean(),
    lookalikes: z.array(z.string()).meta({
      description:
        'Active verified or merchant tags (with `@`) that look like this one (docs/integrators.md, "Look-alike tags").',
      example: ['@a1ice'],
    }),
    warnings: z.array(z.object({ code: z.enum(PAYER_WARNING_CODES), message: z.string() })).meta({
      description:
        'What /@tag and the pay Action warn a payer about now: `unsafe_payout` (the payout wallet is off the curve or the zero key, or a payment request found it owned by a program: do not pay), `wallet_changed_recently` (within the configured window, 72 hours by default), `lookalike`.',
    }),
  })
  .meta({ id: 'Signals' });
export type Signals = z.infer<typeof Signals>;

/**
 * The active verified or merchant tags sharing the row's skeleton (skeleton index), as a column
 * of a read of `identities`. The outer columns are named in full: drizzle leaves them bare in a
 * one-table select, where they would name the subquery's own row.
 */
const lookalikesColumn = () =>
  sql<
    string[]
  >`ARRAY(SELECT l.tag FROM identities l WHERE l.skeleton = identities.skeleton AND l.tag <> identities.tag AND ${sql.raw(activeIdentitySql('l'))} AND (l.verified OR l.merchant) ORDER BY l.tag LIMIT ${sql.raw(String(MAX_LOOKALIKES))})`;

// One statement per batch of tags: the row, its protected look-alikes (skeleton index) and the slot.
// Batched (lib/db/batch.ts): it earns its place measured side by side against the same build
// without it (bench/results/2026-11-26.md, "batchers": GET /v1/identity/{tag}/signals over 500 tags).
const findSignals = activeTagsAtSlot<FactColumns>('identity_signals_at_slot', {
  tag: identities.tag,
  createdAt: identities.createdAt,
  ownerSince: identities.ownerSince,
  walletSince: identities.walletSince,
  wallet: identities.wallet,
  unsafePayoutWallet: identities.unsafePayoutWallet,
  unsafePayoutReason: identities.unsafePayoutReason,
  verified: identities.verified,
  merchant: identities.merchant,
  lookalikes: lookalikesColumn(),
});

export interface SignalsOptions {
  now: Date;
}

/** The signals but the warnings: what the mirror holds, whatever the time; with the payout wallet the warnings judge (not part of the answer). */
export type SignalFacts = Omit<Signals, 'warnings'> & { wallet: string; payoutFinding: UnsafePayoutReason | null };

/** The facts of an active canonical tag (null when missing or blocked), and the slot they reflect. */
export async function readSignalFacts(db: Db, tag: string): Promise<AtSlot<SignalFacts | null>> {
  const { value: row, indexedSlot } = await findSignals(db)(tag);
  return { value: row && signalFactsOf(row), indexedSlot };
}

type FactColumns = Pick<
  IdentityRow,
  | 'tag'
  | 'createdAt'
  | 'ownerSince'
  | 'walletSince'
  | 'wallet'
  | 'unsafePayoutWallet'
  | 'unsafePayoutReason'
  | 'verified'
  | 'merchant'
> & { lookalikes: string[] };

function signalFactsOf(row: FactColumns): SignalFacts {
  const registeredAt = row.createdAt.toISOString();
  return {
    tag: displayTag(row.tag),
    registeredAt,
    ownerSince: row.ownerSince?.toISOString() ?? registeredAt,
    walletSince: row.walletSince?.toISOString() ?? registeredAt,
    verified: row.verified,
    merchant: row.merchant,
    lookalikes: row.lookalikes.map(displayTag),
    wallet: row.wallet,
    payoutFinding: payoutFindingOf(row),
  };
}

/*
 * The /@tag page's read: the whole active row and its look-alikes in one statement, so a view
 * takes one connection and one round trip (the identity and signals reads would take two).
 */
const findProfiles = activeTagsAtSlot<IdentityRow & { lookalikes: string[] }>('identity_profile_at_slot', {
  ...getTableColumns(identities),
  lookalikes: lookalikesColumn(),
});

/** The active canonical tag's row and its signal facts, from one statement; null when missing or blocked. */
export async function readProfileFacts(db: Db, tag: string): Promise<{ row: IdentityRow; facts: SignalFacts } | null> {
  const { value: row } = await findProfiles(db)(tag);
  return row && { row, facts: signalFactsOf(row) };
}

/** The signals of an active canonical tag at `now`; null when missing or blocked. */
export async function getSignalsAtSlot(db: Db, tag: string, { now }: SignalsOptions): Promise<AtSlot<Signals | null>> {
  const { value: facts, indexedSlot } = await readSignalFacts(db, tag);
  if (!facts) return { value: null, indexedSlot };
  const { wallet: _wallet, payoutFinding: _finding, ...answer } = facts;
  return { value: { ...answer, warnings: payerWarnings(facts, now) }, indexedSlot };
}
