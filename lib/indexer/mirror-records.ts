import { getTableColumns, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db';
import { identities, type IdentityRow, type NewIdentityRow } from '@/lib/db/schema';
import { isReservedTag } from '@/lib/identity/tag';
import type { TagRecord } from '@/lib/registry/account';
import type { RecordStates } from './record-states';

/** The transaction through which the indexer learned of a record's state: stamped on the rows it changes. */
export interface Provenance {
  signature: string;
  slot: number;
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

/** The profile and the moderation flags: they described the previous owner (DESIGN "Indexer"). */
const CLEARED_PROFILE = {
  displayName: null,
  avatar: null,
  bio: null,
  preferredToken: null,
  verified: false,
  merchant: false,
} as const satisfies Partial<NewIdentityRow>;

/**
 * Makes the mirror rows of the given records match what the chain holds (DESIGN "Indexer":
 * the chain's records are the truth, not the order of transactions). Per record address:
 * - no record (released): the row at that address is deleted;
 * - a record and no row: the row is created, `createdAt` = the record's `registered_at`, blocked
 *   when the tag is reserved;
 * - a record registered at another time than the row's `createdAt`: the tag was released and
 *   registered again, a new identity (profile, flags and status start afresh);
 * - another owner: owner, wallet and pending owner follow the record, and the profile,
 *   `verified` and `merchant` are cleared; the status stays (a blocked tag stays blocked);
 * - otherwise wallet and pending owner follow the record.
 * A row already equal to its record is not written, so applying the same state again, late
 * or out of order, changes nothing. Run it inside the transaction that holds the mirror
 * lock (`lockMirror`), after reading the states under that lock.
 */
export async function mirrorRecordStates(
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
    .where(tags.length ? or(inArray(identities.pda, addresses), inArray(identities.tag, tags)) : inArray(identities.pda, addresses))
    .for('update');
  const byTag = new Map(rows.map((r) => [r.tag, r]));

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
      writes.push({ tag: record.tag, ...mirroredFields(record, address), ...newIdentity(record.tag), ...stamp(provenance, now) });
      changes.created.push(record.tag);
      changes.changedAddresses.add(address);
      continue;
    }
    const update = updateFor(row, record, address);
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

/** Every column but the key, taken from the upsert's row (`excluded`). */
const WRITTEN_BACK = Object.fromEntries(
  Object.entries(getTableColumns(identities))
    .filter(([key]) => key !== 'tag')
    .map(([key, column]) => [key, sql.raw(`excluded.${column.name}`)]),
);

/** The columns a record dictates (reconcile compares these too). */
export function mirroredFields(record: TagRecord, address: string) {
  return {
    owner: record.owner.toBase58(),
    wallet: record.wallet.toBase58(),
    pendingOwner: record.pendingOwner?.toBase58() ?? null,
    pda: address,
    createdAt: registeredAtOf(record),
  };
}

/** A fresh identity: no profile, no flags, blocked only when the tag is reserved (DESIGN "Tags"). */
function newIdentity(tag: string) {
  return { ...CLEARED_PROFILE, status: isReservedTag(tag) ? ('blocked' as const) : ('active' as const) };
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
function updateFor(row: IdentityRow, record: TagRecord, address: string): { set: Partial<NewIdentityRow>; visible: boolean } | null {
  const mirrored = mirroredFields(record, address);
  if (row.createdAt.getTime() !== mirrored.createdAt.getTime()) return { set: { ...mirrored, ...newIdentity(record.tag) }, visible: true };
  if (row.owner !== mirrored.owner) return { set: { ...mirrored, ...CLEARED_PROFILE }, visible: true };
  const set = { wallet: mirrored.wallet, pendingOwner: mirrored.pendingOwner, pda: address };
  if (row.wallet !== mirrored.wallet) return { set, visible: true };
  return row.pendingOwner !== mirrored.pendingOwner || row.pda !== address ? { set, visible: false } : null;
}
