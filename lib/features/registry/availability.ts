import { address, getI64Decoder, type Address } from '@solana/kit';
import { accountBytesOf, type AccountBytes } from '@/lib/chain/account-bytes';
import type { ChainAndMirror } from '@/lib/chain/chain-and-mirror';
import { rpcCall, type SolanaRpc } from '@/lib/chain/rpc';
import type { Db } from '@/lib/db';
import {
  findSkeletonMates,
  lookalikeWarning,
  protectedLookalike,
  type Lookalike,
} from '@/lib/features/identity/lookalikes';
import { displayTag, isReservedTag, normalizePathTag } from '@/lib/core/tag';
import { findTagRecordPda } from '@/packages/tag-registry/src';
import { isResting, recordAt, restEndsAt } from '@/lib/chain/record-states';
import { refuseUnsafePayout } from '@/lib/chain/payout-safety';
import type { TagAvailability } from './schemas';

export interface TagCheck {
  /** Why the tag cannot be registered, or null when it can. */
  reason: 'reserved' | 'taken' | 'lookalike' | 'quarantined' | null;
  /** With `quarantined`: when the rest ends, ISO 8601 (the chain's clock); from then on anyone may register. */
  until?: string;
  /** The tag record's address. */
  pda: Address;
  /** Its canonical bump (the register_tag limit depends on it: lib/chain/compute-units.ts). */
  bump: number;
  /** Active tags it looks like (lib/core/skeleton.ts), protected ones first. */
  lookalikes: Lookalike[];
}

/**
 * The one check behind POST /v1/register's 409 and GET /v1/availability (DESIGN "Register"):
 * reserved by the service; in the mirror (active or blocked); a look-alike of an active
 * verified or merchant tag; its record already exists on chain (landed but not yet indexed);
 * or it was released and rests (`quarantined`, program/README.md "The resting record"):
 * during the rest only the previous owner may register it, so it is available to `caller`
 * when that is the previous owner, and quarantined for anyone else (and for an unknown
 * caller: GET /v1/availability is public). The mirror part is one statement on the skeleton
 * index, which finds the tag's own row and its look-alikes together. `tag` must be
 * canonical. 503 when the cluster is down.
 */
export async function checkTag(
  db: Db,
  rpc: SolanaRpc,
  programAddress: Address,
  tag: string,
  caller?: string,
): Promise<TagCheck> {
  const [pda, bump] = await findTagRecordPda({ tag }, { programAddress });
  const at = { pda, bump };
  if (isReservedTag(tag)) return { reason: 'reserved', ...at, lookalikes: [] };
  const { own, lookalikes } = await findSkeletonMates(db, tag);
  if (own) return { reason: 'taken', ...at, lookalikes };
  if (protectedLookalike(lookalikes)) return { reason: 'lookalike', ...at, lookalikes };
  const { value } = await rpcCall(() =>
    rpc.getAccountInfo(pda, { encoding: 'base64', commitment: 'confirmed' }).send(),
  );
  const account = accountBytesOf(value);
  const record = recordAt(programAddress, pda, account);
  if (record && isResting(record)) {
    if (caller !== undefined && record.owner === caller) return { reason: null, ...at, lookalikes };
    const until = restEndsAt(record);
    if ((await chainTime(rpc)) < until)
      return { reason: 'quarantined', until: new Date(Number(until) * 1000).toISOString(), ...at, lookalikes };
    return { reason: null, ...at, lookalikes };
  }
  return { reason: account && inUse(account) ? 'taken' : null, ...at, lookalikes };
}

const SYSVAR_CLOCK_ADDRESS = address('SysvarC1ock11111111111111111111111111111111');

/** The Clock sysvar's unix time (the program judges the rest by it, not by this server's clock). */
async function chainTime(rpc: SolanaRpc): Promise<bigint> {
  const { value } = await rpcCall(() =>
    rpc.getAccountInfo(SYSVAR_CLOCK_ADDRESS, { encoding: 'base64', commitment: 'confirmed' }).send(),
  );
  const clock = accountBytesOf(value);
  // slot, epoch_start_timestamp, epoch, leader_schedule_epoch (8 bytes each), then unix_timestamp
  if (!clock || clock.data.length < 40) return BigInt(Math.floor(Date.now() / 1000));
  return getI64Decoder().decode(clock.data, 32);
}

/** The System Program, owner of every address nothing has claimed. */
const SYSTEM_PROGRAM = '11111111111111111111111111111111';

/**
 * The program's own test (AlreadyRegistered): an address owned by another program or holding
 * data. Lamports alone do not count: anyone can send some to any PDA, and register_tag takes
 * such an address over (top up, allocate, assign), so they must not make a tag unavailable.
 */
function inUse(account: AccountBytes): boolean {
  return account.owner !== SYSTEM_PROGRAM || account.data.length > 0;
}

/**
 * Whether a tag can be registered right now (the register page's live check; third parties).
 * Input in path form: trimmed, lower-cased, one leading `@` tolerated. Advisory only: the
 * chain decides, and two people can race for the same tag. With `wallet`, the payout wallet
 * the registrant means to name is checked first, as POST /v1/register checks it (400
 * `unsafe_payout`). The caller is unknown here: a resting tag reads `quarantined` even for
 * its previous owner, whom POST /v1/register lets through (docs/integrators.md).
 */
export async function getTagAvailability({
  db,
  rpc,
  programAddress,
  tagInput,
  wallet,
}: ChainAndMirror & {
  tagInput: string;
  wallet?: string;
}): Promise<TagAvailability> {
  if (wallet !== undefined) await refuseUnsafePayout(rpc, address(wallet));
  const tag = normalizePathTag(tagInput);
  if (!tag) return { tag: null, available: false, reason: 'invalid', lookalikes: [], warning: null };
  const { reason, until, lookalikes } = await checkTag(db, rpc, programAddress, tag);
  return {
    tag,
    available: reason === null,
    reason,
    ...(until ? { until } : {}),
    lookalikes: lookalikes.map((l) => ({ ...l, tag: displayTag(l.tag) })),
    warning: lookalikeWarning(tag, lookalikes),
  };
}
