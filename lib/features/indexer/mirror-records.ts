import { and, getTableColumns, inArray, or, sql } from 'drizzle-orm';
import type { Address } from '@solana/kit';
import type { Db } from '@/lib/db';
import { identities, type IdentityRow, type NewIdentityRow } from '@/lib/db/schema';
import { skeletonOf } from '@/lib/core/skeleton';
import { isReservedTag } from '@/lib/core/tag';
import { readRecordStates, type RecordStates, type TagRecord } from '@/lib/chain/record-states';
import type { SolanaRpc } from '@/lib/chain/rpc';
import { isActiveIdentity } from '@/lib/features/identity/active';
import { recordIdentityChanges } from '@/lib/features/identity/identity-changes';
import { lockMirror } from './mirror-lock';

/** The transaction through which the indexer learned of a record's state: stamped on the rows it changes. */
export interface Provenance {
  signature: string;
  slot: number;
  /** The block time of that transaction (unix seconds), null when the node has none. */
  blockTime?: number | null;
}

/** What making the mirror match the chain changed, by tag. */
export interface MirrorChanges {
  /** Rows inserted (a registration, or a re-registration after a release). */
  created: string[];
  /** Rows whose owner or wallet changed (a new identity counts here too): what GET /v1/identity answers changed. */
  updated: string[];
  /** Rows where only the pending owner (or the stored address) changed: the identity object reads the same. */
  quietlyUpdated: string[];
  /** Rows deleted: their record is gone (released). */
  removed: string[];
  /** The record addresses whose row changed. */
  changedAddresses: Set<string>;
}

export function noChanges(): MirrorChanges {
  return { created: [], updated: [], quietlyUpdated: [], removed: [], changedAddresses: new Set() };
}

/** Every tag whose public answer changed: what the change feed must hear of. */
export function changedTags(changes: MirrorChanges): string[] {
  return [...new Set([...changes.created, ...changes.updated, ...changes.removed])];
}

export interface MirrorTouchedInput {
  rpc: SolanaRpc;
  programAddress: Address;
  /** Each record address a landed transaction touched → the newest such transaction. */
  touched: ReadonlyMap<string, Provenance>;
  now: Date;
}

/**
 * The one way chain state enters the mirror (DESIGN "Indexer"), for the cron run, /v1/sync
 * and reconcile alike. Inside the caller's database transaction: takes the mirror lock, THEN
 * reads the touched records at `finalized` (so reads happen in the order of the writes),
 * makes their rows match, and appends the change-feed events of the tags whose identity
 * changed. Nothing to do after the commit: every page is read from the mirror per view.
 */
export async function mirrorTouchedRecords(
  tx: Db,
  { rpc, programAddress, touched, now }: MirrorTouchedInput,
): Promise<MirrorChanges> {
  if (touched.size === 0) return noChanges();
  await lockMirror(tx, programAddress);
  const states = await readRecordStates(rpc, programAddress, [...touched.keys()], 'finalized');
  const changes = await mirrorRecordStates(tx, states, (address) => touched.get(address)!, now);
  await recordIdentityChanges(tx, changedTags(changes), now);
  return changes;
}

/** The profile and the moderation flags: they described the previous owner (DESIGN "Indexer"). */
const CLEARED_PROFILE = {
  displayName: null,
  avatar: null,
  bio: null,
  preferredToken: null,
  nostr: null,
  verified: false,
  merchant: false,
} as const satisfies Partial<NewIdentityRow>;

/**
 * Makes the mirror rows of the given records match what the chain holds (DESIGN "Indexer":
 * the chain's records are the truth, not the order of transactions). Per record address:
 * - no record (released): the row at that address is deleted;
 * - a record and no row: the row is created, `createdAt` = the record's `registered_at`, blocked
 *   when the tag is reserved or looks like (lib/core/skeleton.ts) an active verified or
 *   merchant tag: the service refuses both at registration, so one that lands anyway is held
 *   until a moderator unblocks it;
 * - a record registered at another time than the row's `createdAt`: the tag was released and
 *   registered again, a new identity (profile, flags and status start afresh);
 * - another owner: owner, wallet and pending owner follow the record, and the profile,
 *   `verified` and `merchant` are cleared; the status stays (a blocked tag stays blocked);
 * - otherwise wallet and pending owner follow the record.
 * `ownerSince` and `walletSince` move to the block time of the transaction that brought the
 * change (at creation, the record's `registered_at`).
 * A row already equal to its record is not written, so applying the same state again, late
 * or out of order, changes nothing. Run it inside the transaction that holds the mirror
 * lock (`lockMirror`), after reading the states under that lock.
 */
async function mirrorRecordStates(
  db: Db,
  states: RecordStates,
  provenanceOf: (address: string) => Provenance,
  now: Date,
): Promise<MirrorChanges> {
  const changes = noChanges();
  if (states.size === 0) return changes;
  const addresses = [...states.keys()];
  const tags = [...states.values()].flatMap((r) => (r ? [r.tag] : []));
  const rows = await db
    .select()
    .from(identities)
    .where(
      tags.length
        ? or(inArray(identities.pda, addresses), inArray(identities.tag, tags))
        : inArray(identities.pda, addresses),
    )
    .for('update');
  const byTag = new Map(rows.map((r) => [r.tag, r]));
  const protectedLookalikes = await protectedSkeletons(
    db,
    [...states.values()].flatMap((r) =>
      r && byTag.get(r.tag)?.createdAt.getTime() !== registeredAtOf(r).getTime() ? [r.tag] : [],
    ),
  );
  const newIdentity = (tag: string) => freshIdentity(tag, protectedLookalikes);

  // New rows and changed ones, whole, go in one upsert: the changed rows are locked (FOR
  // UPDATE above), so their profile columns are written back as they are.
  const writes: NewIdentityRow[] = [];
  const removals: string[] = [];
  for (const [address, record] of states) {
    const provenance = provenanceOf(address);
    if (!record) {
      for (const row of rows) {
        if (row.pda !== address) continue;
        removals.push(row.tag);
        changes.changedAddresses.add(address);
      }
      continue;
    }
    const row = byTag.get(record.tag);
    if (!row) {
      writes.push({
        tag: record.tag,
        ...mirroredFields(record, address),
        ...sinceRegistration(record),
        ...newIdentity(record.tag),
        ...stamp(provenance, now),
      });
      changes.created.push(record.tag);
      changes.changedAddresses.add(address);
      continue;
    }
    const update = updateFor(row, record, address, changedAt(provenance, now), newIdentity);
    if (!update) continue;
    writes.push({ ...row, ...update.set, ...stamp(provenance, now) });
    (update.visible ? changes.updated : changes.quietlyUpdated).push(row.tag);
    changes.changedAddresses.add(address);
  }
  if (removals.length) {
    await db.delete(identities).where(inArray(identities.tag, removals));
    changes.removed.push(...removals);
  }
  if (writes.length) {
    await db.insert(identities).values(writes).onConflictDoUpdate({ target: identities.tag, set: WRITTEN_BACK });
  }
  return changes;
}

/** Every column but the key and the database's own (the skeleton), taken from the upsert's row (`excluded`). */
const WRITTEN_BACK = Object.fromEntries(
  Object.entries(getTableColumns(identities))
    .filter(([key, column]) => key !== 'tag' && !column.generated)
    .map(([key, column]) => [key, sql.raw(`excluded.${column.name}`)]),
);

/** The columns a record dictates (reconcile compares these too). */
export function mirroredFields(record: TagRecord, address: string) {
  return {
    owner: record.owner,
    wallet: record.wallet,
    pendingOwner: record.pendingOwner,
    pda: address,
    createdAt: registeredAtOf(record),
  };
}

/** A new identity's owner and wallet date from its registration. */
function sinceRegistration(record: TagRecord) {
  return { ownerSince: registeredAtOf(record), walletSince: registeredAtOf(record) };
}

/**
 * A fresh identity: no profile, no flags, blocked when the tag is reserved (DESIGN "Tags") or
 * when `protectedLookalikes` names another tag it looks like.
 */
function freshIdentity(tag: string, protectedLookalikes: ReadonlyMap<string, string>) {
  const lookalikeOf = protectedLookalikes.get(skeletonOf(tag));
  const blocked = isReservedTag(tag) || (lookalikeOf !== undefined && lookalikeOf !== tag);
  return { ...CLEARED_PROFILE, status: blocked ? ('blocked' as const) : ('active' as const) };
}

/**
 * Skeleton → an active verified or merchant tag with it, for the skeletons of `tags` (one
 * statement, on the skeleton index). A tag is never its own look-alike: the caller compares.
 */
async function protectedSkeletons(db: Db, tags: readonly string[]): Promise<Map<string, string>> {
  if (tags.length === 0) return new Map();
  const found = await db
    .select({ tag: identities.tag, skeleton: identities.skeleton })
    .from(identities)
    .where(
      and(
        inArray(identities.skeleton, [...new Set(tags.map(skeletonOf))]),
        isActiveIdentity,
        sql`(${identities.verified} OR ${identities.merchant})`,
        sql`NOT (${identities.tag} = ANY(${sql.param([...tags])}::text[]))`,
      ),
    );
  return new Map(found.map((r) => [r.skeleton, r.tag]));
}

/** When the chain made the change: the transaction's block time, else (a node without it) now. */
function changedAt(provenance: Provenance, now: Date): Date {
  return provenance.blockTime ? new Date(provenance.blockTime * 1000) : now;
}

function stamp(provenance: Provenance, now: Date) {
  return { signature: provenance.signature, slot: BigInt(provenance.slot), updatedAt: now };
}

/** The record's `registered_at` (unix seconds, the Clock at registration) as the row's `createdAt`. */
export function registeredAtOf(record: TagRecord): Date {
  return new Date(Number(record.registeredAt) * 1000);
}

/**
 * The columns to write so that `row` matches `record`, or null when it already does;
 * `visible` when the identity object changes with them (not for an offer or the address alone).
 */
function updateFor(
  row: IdentityRow,
  record: TagRecord,
  address: string,
  at: Date,
  newIdentity: (tag: string) => Partial<NewIdentityRow>,
): { set: Partial<NewIdentityRow>; visible: boolean } | null {
  const mirrored = mirroredFields(record, address);
  if (row.createdAt.getTime() !== mirrored.createdAt.getTime()) {
    return { set: { ...mirrored, ...sinceRegistration(record), ...newIdentity(record.tag) }, visible: true };
  }
  const walletSince = row.wallet !== mirrored.wallet ? at : row.walletSince;
  if (row.owner !== mirrored.owner)
    return { set: { ...mirrored, ...CLEARED_PROFILE, ownerSince: at, walletSince }, visible: true };
  const set = { wallet: mirrored.wallet, pendingOwner: mirrored.pendingOwner, pda: address };
  if (row.wallet !== mirrored.wallet) return { set: { ...set, walletSince }, visible: true };
  return row.pendingOwner !== mirrored.pendingOwner || row.pda !== address ? { set, visible: false } : null;
}
