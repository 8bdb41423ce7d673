import { SystemProgram, type AccountInfo, type Connection, type PublicKey } from '@solana/web3.js';
import type { ChainAndMirror } from '@/lib/chain/chain-and-mirror';
import { rpcCall } from '@/lib/chain/rpc';
import type { Db } from '@/lib/db';
import { findSkeletonMates, lookalikeWarning, protectedLookalike, type Lookalike } from '@/lib/identity/lookalikes';
import { displayTag, isReservedTag, normalizePathTag } from '@/lib/identity/tag';
import { findTagRecordAddress } from '@/packages/tag-registry/src/web3js';
import type { TagAvailability } from './schemas';

export interface TagCheck {
  /** Why the tag cannot be registered, or null when it can. */
  reason: 'reserved' | 'taken' | 'lookalike' | null;
  /** The tag record's address. */
  pda: PublicKey;
  /** Active tags it looks like (lib/identity/skeleton.ts), protected ones first. */
  lookalikes: Lookalike[];
}

/**
 * The one check behind POST /v1/register's 409 and GET /v1/availability (DESIGN "Register"):
 * reserved by the service; in the mirror (active or blocked); a look-alike of an active
 * verified or merchant tag; or its record already exists on chain (landed but not yet
 * indexed). The mirror part is one statement on the skeleton index, which finds the tag's own
 * row and its look-alikes together. `tag` must be canonical. 503 when the cluster is down.
 */
export async function checkTag(db: Db, connection: Connection, programId: PublicKey, tag: string): Promise<TagCheck> {
  const [pda] = findTagRecordAddress(tag, programId);
  if (isReservedTag(tag)) return { reason: 'reserved', pda, lookalikes: [] };
  const { own, lookalikes } = await findSkeletonMates(db, tag);
  if (own) return { reason: 'taken', pda, lookalikes };
  if (protectedLookalike(lookalikes)) return { reason: 'lookalike', pda, lookalikes };
  const account = await rpcCall(() => connection.getAccountInfo(pda, 'confirmed'));
  return { reason: account && inUse(account) ? 'taken' : null, pda, lookalikes };
}

/**
 * The program's own test (AlreadyRegistered): an address owned by another program or holding
 * data. Lamports alone do not count: anyone can send some to any PDA, and register_tag takes
 * such an address over (top up, allocate, assign), so they must not make a tag unavailable.
 */
function inUse(account: AccountInfo<Buffer>): boolean {
  return !account.owner.equals(SystemProgram.programId) || account.data.length > 0;
}

/**
 * Whether a tag can be registered right now (the register page's live check; third parties).
 * Input in path form: trimmed, lower-cased, one leading `@` tolerated. Advisory only: the
 * chain decides, and two people can race for the same tag.
 */
export async function getTagAvailability({
  db,
  connection,
  programId,
  tagInput,
}: ChainAndMirror & {
  tagInput: string;
}): Promise<TagAvailability> {
  const tag = normalizePathTag(tagInput);
  if (!tag) return { tag: null, available: false, reason: 'invalid', lookalikes: [], warning: null };
  const { reason, lookalikes } = await checkTag(db, connection, programId, tag);
  return {
    tag,
    available: reason === null,
    reason,
    lookalikes: lookalikes.map((l) => ({ ...l, tag: displayTag(l.tag) })),
    warning: lookalikeWarning(tag, lookalikes),
  };
}
