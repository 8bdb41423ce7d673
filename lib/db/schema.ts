import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  json,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: 'date' });

/** A sign-in challenge (SPEC 2.2, 3.2): issued, then consumed exactly once by verify. */
export const authNonces = pgTable(
  'auth_nonces',
  {
    nonce: text('nonce').primaryKey(),
    pubkey: text('pubkey').notNull(),
    /** SHA-256 (hex) of the exact message issued: verify accepts only that text. */
    messageHash: text('message_hash').notNull(),
    issuedAt: ts('issued_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    consumedAt: ts('consumed_at'),
  },
  (t) => [index('auth_nonces_expires_at_idx').on(t.expiresAt)],
);

/**
 * Rate-limit state per bucket and client address, shared by every server process (SPEC 8):
 * GCRA (lib/features/auth/rate-limit.ts). `tat` is the theoretical arrival time: once it has passed the
 * bucket is full again and the row says nothing, so rows with `tat` in the past are pruned.
 * The other columns are the last update's: when, under which policy, how many were granted.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    tat: timestamp('tat', { withTimezone: true, precision: 6, mode: 'date' }).notNull(),
    seenAt: timestamp('seen_at', { withTimezone: true, precision: 6, mode: 'date' }).notNull(),
    /** Milliseconds between two requests at the sustained rate: window / limit. */
    periodMs: doublePrecision('period_ms').notNull(),
    /** Requests allowed at once (the burst), and per window. */
    lim: integer('lim').notNull(),
    granted: integer('granted').notNull(),
  },
  (t) => [index('rate_limits_tat_idx').on(t.tat)],
);

/**
 * The off-chain mirror of a registered tag (SPEC 2.1, 3.1). Created, changed and deleted only
 * by the indexer, which makes owner, wallet and pending owner match the record on chain
 * (DESIGN "Indexer"); the profile fields and flags are the service's own.
 */
export const identities = pgTable(
  'identities',
  {
    tag: text('tag').primaryKey(),
    owner: text('owner').notNull(),
    wallet: text('wallet').notNull(),
    /** The key a standing transfer offer names (the record's pending_owner), null when none. */
    pendingOwner: text('pending_owner'),
    /**
     * The tag record's address: how the indexer finds the row of a record that was closed
     * (released), whose tag it can no longer read.
     */
    pda: text('pda').notNull(),
    displayName: text('display_name'),
    avatar: text('avatar'),
    bio: text('bio'),
    preferredToken: text('preferred_token'),
    /** The owner's Nostr public key, 64 lower-case hex digits (NIP-05's answer at /.well-known/nostr.json). */
    nostr: text('nostr'),
    verified: boolean('verified').notNull().default(false),
    merchant: boolean('merchant').notNull().default(false),
    status: text('status', { enum: ['active', 'blocked'] })
      .notNull()
      .default('active'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at')
      .notNull()
      .default(sql`now()`),
    /** The transaction of ours whose indexing last changed the row (at first, the registration), and its slot. */
    signature: text('signature').notNull(),
    slot: bigint('slot', { mode: 'bigint' }).notNull(),
    /**
     * When the current owner and the current payout wallet became so: the block time of the
     * landed transaction the indexer learned the change from (at registration, the record's
     * `registered_at`). What a payer's warning about a fresh wallet is computed from.
     */
    ownerSince: ts('owner_since'),
    walletSince: ts('wallet_since'),
    /**
     * The tag's look-alike skeleton (lib/core/skeleton.ts), computed by the database from
     * the tag, so every row has it however it was written.
     */
    /**
     * What the last payment request found on chain about the payout wallet (DESIGN "Payments
     * and receipts", "Truth at issue time"): the wallet it read and why SOL sent there would be
     * lost (lib/chain/payout-safety.ts). It counts while `wallet` is still that wallet, so a
     * new wallet clears it without a write; payers are warned and no pay link is shown.
     */
    unsafePayoutWallet: text('unsafe_payout_wallet'),
    unsafePayoutReason: text('unsafe_payout_reason'),
    skeleton: text('skeleton')
      .notNull()
      .generatedAlwaysAs(sql`tag_skeleton(tag)`),
  },
  (t) => [
    index('identities_owner_idx').on(t.owner),
    // Look-alike checks: every tag with a given skeleton.
    index('identities_skeleton_idx').on(t.skeleton),
    index('identities_pending_owner_idx').on(t.pendingOwner),
    // Reverse lookups fall back to the tags an address is the payout wallet of.
    index('identities_wallet_idx').on(t.wallet),
    uniqueIndex('identities_pda_idx').on(t.pda),
  ],
);

/** Where the indexer stopped: the newest signature it has processed, per program. */
export const indexerCursors = pgTable('indexer_cursors', {
  programId: text('program_id').primaryKey(),
  lastSignature: text('last_signature'),
  lastSlot: bigint('last_slot', { mode: 'bigint' }),
  /**
   * The newest slot POST /v1/sync has mirrored a transaction of (it does not move the cursor):
   * with `lastSlot`, what X-Indexed-Slot reports.
   */
  syncedSlot: bigint('synced_slot', { mode: 'bigint' }),
  updatedAt: ts('updated_at')
    .notNull()
    .default(sql`now()`),
});

/**
 * Transactions of the program the indexer passed over for good, with why: they will never
 * decode (no instruction of ours, a malformed one, a version it cannot read), so the cursor
 * moves past them instead of retrying them forever. Kept for the record and the cron summary.
 */
export const indexerSkips = pgTable('indexer_skips', {
  signature: text('signature').primaryKey(),
  programId: text('program_id').notNull(),
  slot: bigint('slot', { mode: 'bigint' }).notNull(),
  reason: text('reason').notNull(),
  recordedAt: ts('recorded_at').notNull(),
});

/**
 * Transactions the indexer could not read yet (the node answered null or an error, or an
 * incomplete answer): the cursor waits before the oldest, and each run retries it. Attempts
 * and the first time show how long the indexer has been held up. Deleted once applied.
 */
export const indexerDeferrals = pgTable('indexer_deferrals', {
  signature: text('signature').primaryKey(),
  programId: text('program_id').notNull(),
  reason: text('reason').notNull(),
  attempts: integer('attempts').notNull(),
  firstDeferredAt: ts('first_deferred_at').notNull(),
  lastDeferredAt: ts('last_deferred_at').notNull(),
});

/**
 * The indexer's last run per program, whichever instance ran it, so every instance's
 * GET /api/indexer/status reports the same (lib/features/indexer/last-run.ts). `caughtUpSlot` is the
 * newest finalized slot a run listed every signature up to (the cursor's slot only moves
 * with the program's own transactions, so it alone cannot tell a quiet program from a
 * stopped indexer); a run that failed or stopped early leaves it as it was.
 */
export const indexerRuns = pgTable('indexer_runs', {
  programId: text('program_id').primaryKey(),
  startedAt: ts('started_at').notNull(),
  finishedAt: ts('finished_at').notNull(),
  /** `completed` or `failed` (a run skipped because another held the lock writes nothing). */
  outcome: text('outcome', { enum: ['completed', 'failed'] }).notNull(),
  processed: integer('processed').notNull(),
  deferred: integer('deferred').notNull(),
  recordedSkips: integer('recorded_skips').notNull(),
  durationMs: integer('duration_ms').notNull(),
  /** Why a failed run failed (scrubbed of secrets; shown to the operator only). */
  error: text('error'),
  caughtUpSlot: bigint('caught_up_slot', { mode: 'bigint' }),
  caughtUpAt: ts('caught_up_at'),
});

/** PostgreSQL's 64-bit transaction id (`xid8`), carried as decimal text. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });

/**
 * The change feed (DESIGN.md "For integrators", GET /v1/events): one row per change of what
 * GET /v1/identity answers for a tag, written in the transaction of the change
 * (lib/features/identity/identity-changes.ts). `identity` is the full public identity for `upsert`, null
 * for `remove` (missing, blocked and released read the same).
 *
 * Readers page by (`xid`, `id`) and see only rows whose `xid` is older than every transaction
 * still in flight, so a row that commits late is never skipped: `xid` is the writing
 * transaction's id, raised to the tag's previous event's `xid` when that is larger, so that a
 * tag's events also sort in the order they committed.
 */
export const identityEvents = pgTable(
  'identity_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tag: text('tag').notNull(),
    type: text('type', { enum: ['upsert', 'remove'] }).notNull(),
    // json, not jsonb: the identity is kept as written, its keys in the order GET answers them.
    identity: json('identity'),
    at: ts('at').notNull(),
    xid: xid8('xid')
      .notNull()
      .default(sql`pg_current_xact_id()`),
  },
  (t) => [index('identity_events_xid_id_idx').on(t.xid, t.id), index('identity_events_tag_xid_idx').on(t.tag, t.xid)],
);

/**
 * Each owner's choice of primary tag (DESIGN.md "For integrators", PUT /v1/primary): what a
 * reverse lookup of the owner's address answers. It counts only while the mirror row of `tag`
 * is active and still has this `owner` (reverse lookups join on both), so a transfer, release
 * or block ends it at once. The next change of the tag that leaves it another owner or none
 * marks the row ended (recordIdentityChanges), so the tag coming back later does not revive it
 * and a reverse lookup can say why it answers 404.
 */
export const primaryTags = pgTable(
  'primary_tags',
  {
    owner: text('owner').primaryKey(),
    tag: text('tag').notNull(),
    chosenAt: ts('chosen_at').notNull(),
    /**
     * When the owner stopped owning `tag` (a transfer, a release): the choice no longer
     * counts, and a reverse lookup's 404 says `primary_not_owned`. Choosing again clears it.
     */
    endedAt: ts('ended_at'),
  },
  // recordIdentityChanges drops the choices a change of these tags ended.
  (t) => [index('primary_tags_tag_idx').on(t.tag)],
);

/**
 * A webhook subscription (DESIGN.md "Webhooks"): its owner's target URL, the tags it limits
 * itself to (null: every change), the Standard Webhooks signing secret (and, for a day after a
 * rotation, the previous one), and its cursor into the change feed: the (`cursor_xid`,
 * `cursor_id`) position of the last event delivered or skipped. Delivery is at least once: the
 * cursor moves only after the target answered 2xx.
 *
 * `failures` counts consecutive failed attempts since `failing_since`; `next_attempt_at` is when
 * the subscription is due again (backoff); `disabled_at` and `disabled_reason` are set when it
 * gave up. A delivery pass (`lease_holder`, one id per pass) holds the subscription until
 * `leased_until`, renewed while it delivers, so passes that overlap (the interval, the cron
 * route, several processes) never deliver one subscription twice at once, and a dead pass's
 * lease runs out within seconds. `epoch` grows with every replay: a pass that began before a replay does not write its
 * cursor over the replay's.
 */
export const webhookSubscriptions = pgTable(
  'webhook_subscriptions',
  {
    id: text('id').primaryKey(),
    owner: text('owner').notNull(),
    url: text('url').notNull(),
    tags: text('tags').array(),
    secret: text('secret').notNull(),
    previousSecret: text('previous_secret'),
    previousSecretUntil: ts('previous_secret_until'),
    createdAt: ts('created_at').notNull(),
    cursorXid: xid8('cursor_xid').notNull(),
    cursorId: bigint('cursor_id', { mode: 'number' }).notNull(),
    epoch: integer('epoch').notNull().default(0),
    failures: integer('failures').notNull().default(0),
    failingSince: ts('failing_since'),
    lastError: text('last_error'),
    nextAttemptAt: ts('next_attempt_at').notNull(),
    leasedUntil: ts('leased_until'),
    leaseHolder: text('lease_holder'),
    disabledAt: ts('disabled_at'),
    disabledReason: text('disabled_reason'),
    /** The event types it chose (`identity.changed`, `payment.received`); lib/features/webhooks/event-types.ts. */
    events: text('events')
      .array()
      .notNull()
      .default(sql`'{identity.changed}'`),
  },
  (t) => [
    index('webhook_subscriptions_owner_idx').on(t.owner),
    index('webhook_subscriptions_due_idx').on(t.nextAttemptAt),
  ],
);

/** One delivery attempt of one event to one subscription: what its owner sees of the last ones. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    subscriptionId: text('subscription_id')
      .notNull()
      .references(() => webhookSubscriptions.id, { onDelete: 'cascade' }),
    eventId: bigint('event_id', { mode: 'number' }).notNull(),
    attemptedAt: ts('attempted_at').notNull(),
    /** The target's HTTP status; null when none came (timeout, refused address, connection error). */
    status: integer('status'),
    latencyMs: integer('latency_ms').notNull(),
    /** Why the attempt failed; null when the target answered 2xx. */
    error: text('error'),
  },
  (t) => [index('webhook_deliveries_subscription_idx').on(t.subscriptionId, t.id)],
);

/**
 * A Solana Pay reference this service issued (DESIGN.md "Payments and receipts"), with what it
 * was issued for, and the receipt once a transaction carrying it is found. A settled receipt
 * (its `signature` or `reason` set) never takes another transaction: the first one decides.
 */
export const paymentReferences = pgTable(
  'payment_references',
  {
    reference: text('reference').primaryKey(),
    tag: text('tag').notNull(),
    /**
     * The tag's owner when issued: the one whose payout wallet is paid, and so the one whose
     * webhook subscriptions hear of it (`payment.received`), even if the tag changed hands since.
     */
    owner: text('owner'),
    /** The payout wallet when issued: a later wallet change does not move the receipt. */
    recipient: text('recipient').notNull(),
    /**
     * Decimal text in the asset's units ("1.5"), as issued; null for a reference issued without
     * an amount (the profile's pay link: the payer chooses), until a payment fills in what it paid.
     */
    amount: text('amount'),
    /** `SOL`, or the SPL mint. */
    asset: text('asset').notNull(),
    /** The asset's decimals when issued (9 for SOL), to compare base units. */
    decimals: integer('decimals').notNull(),
    issuedAt: ts('issued_at').notNull(),
    status: text('status', { enum: ['pending', 'confirmed', 'finalized', 'invalid'] })
      .notNull()
      .default('pending'),
    signature: text('signature'),
    slot: bigint('slot', { mode: 'number' }),
    payer: text('payer'),
    paidAt: ts('paid_at'),
    /** Why an `invalid` receipt is invalid. */
    reason: text('reason'),
    /** Once found: whether the transaction carried this service's signed Action Identity memo for the reference. */
    attributed: boolean('attributed'),
    /** When the finding pass last looked it up (before the pass read payout accounts; kept for old rows). */
    checkedAt: ts('checked_at'),
    /**
     * Issued plus PAYMENT_REFERENCE_TTL_SECONDS: a payment landing later settles nothing, the
     * receipt reads `expired`, and an unpaid row is deleted 7 days after it.
     */
    expiresAt: ts('expires_at').notNull(),
    /**
     * Transactions that named the reference but failed validation (a dust payment, a wrong
     * mint), the first few only: listed on the receipt, they never decide it.
     */
    rejected: jsonb('rejected').$type<RejectedPayment[]>().notNull().default([]),
  },
  (t) => [index('payment_references_open_idx').on(t.status, t.expiresAt)],
);

/** A transaction that named a reference but does not pay what it was issued for. */
export interface RejectedPayment {
  signature: string;
  reason: string;
}

/**
 * Where the finding pass last stopped reading a payout account (the wallet paid in SOL, or its
 * token account for a mint): the newest signature it has judged, so that a run reads only the
 * account's transactions since (lib/features/payments/payout-cursors.ts).
 */
export const paymentPayoutCursors = pgTable(
  'payment_payout_cursors',
  {
    account: text('account').primaryKey(),
    /** Null until the account lists a transaction the pass has judged. */
    signature: text('signature'),
    slot: bigint('slot', { mode: 'number' }),
    /** When the pass last read it: the operator's lag (GET /api/indexer/status). */
    readAt: ts('read_at').notNull(),
    /** The last expiry among its open references at that read: until then the account is read every run. */
    openUntil: ts('open_until').notNull(),
  },
  (t) => [index('payment_payout_cursors_open_idx').on(t.openUntil)],
);

export type PaymentReferenceRow = typeof paymentReferences.$inferSelect;

/**
 * A receipt becoming `confirmed` or `finalized` (DESIGN.md "Payments and receipts"): what the
 * owner's subscriptions that chose `payment.received` are sent. Its id comes from the identity
 * feed's sequence and its `xid` is written as the feed's is, so one (xid, id) cursor orders both
 * tables and a subscription's cursor, replay included, covers both (lib/features/webhooks/subscription-events.ts).
 */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: bigint('id', { mode: 'number' })
      .primaryKey()
      .default(sql`nextval('identity_events_id_seq')`),
    reference: text('reference').notNull(),
    /** payment_references.owner: whose subscriptions are told. */
    owner: text('owner').notNull(),
    tag: text('tag').notNull(),
    status: text('status', { enum: ['confirmed', 'finalized'] }).notNull(),
    /** The receipt as GET /v1/payments/{reference} answered it then. */
    receipt: json('receipt').notNull(),
    at: ts('at').notNull(),
    xid: xid8('xid')
      .notNull()
      .default(sql`pg_current_xact_id()`),
  },
  (t) => [
    index('payment_events_owner_xid_id_idx').on(t.owner, t.xid, t.id),
    uniqueIndex('payment_events_reference_status_idx').on(t.reference, t.status),
  ],
);

export type WebhookSubscriptionRow = typeof webhookSubscriptions.$inferSelect;

export type AuthNonce = typeof authNonces.$inferSelect;
export type IdentityRow = typeof identities.$inferSelect;
export type NewIdentityRow = typeof identities.$inferInsert;
export type IdentityEventRow = typeof identityEvents.$inferSelect;
