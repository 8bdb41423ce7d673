import type { Db } from '@/lib/db';
import { createBatcher, perHandle } from '@/lib/db/batch';
import { executePrepared } from '@/lib/db/rows';
import { displayTag } from '@/lib/core/tag';
import { AppError } from '@/lib/core/errors';
import { activeIdentitySql } from '@/lib/features/identity/active';
import { INDEXED_SLOT_SQL, readIndexedSlot, type AtSlot } from '@/lib/db/indexed-slot';
import { reverseNotFoundReason, type ReverseNotFoundReason } from './reverse-reasons';

/*
 * Reverse lookup (DESIGN.md "For integrators"): an address → one tag. In order:
 *   1. the tag its owner chose as primary, while the owner still owns it and it is active;
 *   2. else the oldest active tag it owns (registration time, then tag);
 *   3. else the oldest active tag it is the payout wallet of.
 * The choice is kept as (owner, tag) and joined on the mirror's current owner and status,
 * so a tag transferred, released or blocked stops counting at once, whoever forgets what
 * (the ENS rule: a reverse record counts only while the forward lookup agrees).
 */

/**
 * One statement for many addresses, in the order given; a tag (bare) or null each. Per
 * address, one look at the tags it owns or is the payout wallet of (two indexes), ranked:
 * owned before paid-to, the chosen primary (of an owned tag only) first, then the oldest.
 */
export const REVERSE_LOOKUP_SQL = `
SELECT a.address, (
  SELECT i.tag FROM identities i
  LEFT JOIN primary_tags p ON p.owner = a.address AND p.tag = i.tag AND p.ended_at IS NULL
  WHERE (i.owner = a.address OR i.wallet = a.address) AND ${activeIdentitySql('i')}
  ORDER BY i.owner = a.address DESC, (p.tag IS NOT NULL AND i.owner = a.address) DESC, i.created_at, i.tag
  LIMIT 1
) AS tag, ${INDEXED_SLOT_SQL} AS indexed_slot
FROM unnest($1::text[]) WITH ORDINALITY AS a(address, n)
ORDER BY a.n`;

/** The owner's own primary: steps 1 and 2 only (what PUT /v1/primary reports). */
export const OWNER_PRIMARY_SQL = `
SELECT COALESCE(
  (SELECT i.tag FROM primary_tags p
     JOIN identities i ON i.tag = p.tag AND i.owner = p.owner AND ${activeIdentitySql('i')}
    WHERE p.owner = $1 AND p.ended_at IS NULL),
  (SELECT i.tag FROM identities i
    WHERE i.owner = $1 AND ${activeIdentitySql('i')}
    ORDER BY i.created_at, i.tag LIMIT 1)
) AS tag`;

/** The tags of `addresses` (at least one), and the slot the mirror reflected in the same snapshot. */
async function lookUp(db: Db, addresses: readonly string[]): Promise<{ tags: (string | null)[]; indexedSlot: string }> {
  const rows = await executePrepared<{ address: string; tag: string | null; indexed_slot: string }>(
    db,
    'reverse_lookup_at_slot',
    REVERSE_LOOKUP_SQL,
    [addresses],
  );
  return { tags: rows.map((row) => row.tag), indexedSlot: rows[0]!.indexed_slot };
}

// Single lookups arriving while a statement runs go together in the next one (lib/db/batch.ts),
// measured side by side against the same build without it (bench/results/2026-11-26.md, "batchers": GET /v1/reverse/{address}).
const batchedLookUp = perHandle((db: Db) =>
  createBatcher(async (addresses: string[]) => {
    const unique = [...new Set(addresses)];
    const byAddress = new Map(unique.map((address, i) => [address, i]));
    const { tags, indexedSlot } = await lookUp(db, unique);
    return addresses.map((address) => ({ tag: tags[byAddress.get(address)!] ?? null, indexedSlot }));
  }),
);

const NOT_FOUND_MESSAGES: Record<ReverseNotFoundReason, string> = {
  no_tag: 'No tag for this address.',
  blocked: 'No tag for this address: the tags it owns or is the payout wallet of are blocked.',
  not_indexed: 'No tag for this address in the mirror: the mirror may be behind the chain; try again shortly.',
  primary_not_owned: 'No tag for this address: the primary tag it chose now belongs to another key or was released.',
};

/** The 404 of a reverse lookup, its reason beside the message (lib/features/integrations/reverse-reasons.ts). */
export function reverseNotFound(reason: ReverseNotFoundReason): AppError {
  return new AppError('not_found', NOT_FOUND_MESSAGES[reason], {}, { reason });
}

/**
 * GET /v1/reverse/{address}: `{ address, tag: "@alice" }`, or why no tag answers for it, and the
 * slot the mirror reflected.
 */
export async function reverseLookup(
  mirror: { db: Db; programAddress: string },
  address: string,
  now: Date,
): Promise<AtSlot<{ address: string; tag: string } | { reason: ReverseNotFoundReason }>> {
  const { tag, indexedSlot } = await batchedLookUp(mirror.db)(address);
  if (!tag) return { value: { reason: await reverseNotFoundReason(mirror, address, now) }, indexedSlot };
  return { value: { address, tag: displayTag(tag) }, indexedSlot };
}

/** POST /v1/reverse: each address (duplicates once) → `@tag` or null. */
export async function reverseLookupMany(
  db: Db,
  addresses: readonly string[],
): Promise<AtSlot<Record<string, string | null>>> {
  const unique = [...new Set(addresses)];
  const results: Record<string, string | null> = {};
  if (unique.length === 0) return { value: results, indexedSlot: await readIndexedSlot(db) };
  const { tags, indexedSlot } = await lookUp(db, unique);
  unique.forEach((address, i) => (results[address] = tags[i] ? displayTag(tags[i]) : null));
  return { value: results, indexedSlot };
}

/** The owner's primary tag as it stands (bare), or null when it owns no active tag. */
export async function ownerPrimaryTag(db: Db, owner: string): Promise<string | null> {
  const [row] = await executePrepared<{ tag: string | null }>(db, 'owner_primary_tag', OWNER_PRIMARY_SQL, [owner]);
  return row?.tag ?? null;
}
