import { PublicKey } from '@solana/web3.js';
import type { ChainAndMirror } from '@/lib/chain/chain-and-mirror';
import { recentPriorityFee } from '@/lib/chain/priority-fee';
import type { PriorityFeePolicy } from '@/lib/config';
import { AppError } from '@/lib/errors';
import { rpcCall } from '@/lib/chain/rpc';
import { describeLookalike, protectedLookalike } from '@/lib/identity/lookalikes';
import { displayTag, INVALID_TAG_MESSAGE } from '@/lib/identity/tag';
import { normalizeTag } from '@/lib/identity/tag';
import { checkTag } from './availability';
import { buildUnsignedTransaction } from './build-unsigned-transaction';
import { registerTagLimit } from './compute-units';
import { findTagRecordAddress, registerTagInstruction } from '@/packages/tag-registry/src/web3js';
import type { RegisterRequest, RegisterResponse } from './schemas';

export const TAG_UNAVAILABLE_MESSAGE = 'This tag is taken, reserved or blocked.';

export interface BuildRegisterTransactionInput extends ChainAndMirror {
  /** The authenticated caller (the session token's `sub`): always the owner, never the body. */
  owner: string;
  /** The body, parsed by the route with RegisterRequest. */
  request: RegisterRequest;
  /** How the compute units are priced (config `priorityFee`). */
  priorityFee: PriorityFeePolicy;
}

/**
 * POST /v1/register (SPEC 4.5, DESIGN "Register"): an UNSIGNED legacy transaction with the
 * compute budget (a limit sized to this tag's worst case, a price from the recent fees of the
 * accounts it writes) and one `register_tag`, fee payer = the sponsor or the owner, a recent
 * blockhash. Never signs,
 * never submits, never writes the mirror: the indexer creates the identity once it lands.
 * 400 bad body, tag or key; 409 taken, reserved or blocked, or 409 `lookalike` (it looks like an
 * active verified or merchant tag, named in the envelope's `tag`); 503 cluster unreachable.
 */
export async function buildRegisterTransaction({
  db,
  connection,
  programId,
  owner,
  request,
  priorityFee,
}: BuildRegisterTransactionInput): Promise<RegisterResponse> {
  if (request.tag.trimStart().startsWith('@')) {
    throw new AppError('invalid_tag', 'Send the tag without a leading `@`.');
  }
  const tag = normalizeTag(request.tag);
  if (!tag) throw new AppError('invalid_tag', INVALID_TAG_MESSAGE);
  const ownerKey = new PublicKey(owner);
  const wallet = request.wallet ? new PublicKey(request.wallet) : ownerKey;
  const feePayer = request.feePayer ? new PublicKey(request.feePayer) : ownerKey;

  const [pda, bump] = findTagRecordAddress(tag, programId);

  // The reads at once: one round trip to the cluster on the happy path.
  const [check, latest, microLamports] = await Promise.all([
    checkTag(db, connection, programId, tag),
    rpcCall(() => connection.getLatestBlockhash('confirmed')),
    recentPriorityFee(connection, [pda, feePayer], priorityFee),
  ]);
  if (check.reason === 'lookalike') throw lookalikeRefused(tag, check.lookalikes);
  if (check.reason) throw new AppError('conflict', TAG_UNAVAILABLE_MESSAGE);

  const { transaction, lastValidBlockHeight } = buildUnsignedTransaction({
    feePayer,
    latest,
    budget: { units: registerTagLimit(tag, bump), microLamports },
    instructions: [registerTagInstruction({ programId, tag, owner: ownerKey, wallet, feePayer })],
  });
  return { transaction, pda: check.pda.toBase58(), lastValidBlockHeight };
}

/** 409 `lookalike`, naming the protected tag the new one imitates (message and `tag`). */
function lookalikeRefused(tag: string, lookalikes: Parameters<typeof protectedLookalike>[0]): AppError {
  const imitated = protectedLookalike(lookalikes)!;
  return new AppError(
    'lookalike',
    `${displayTag(tag)} looks like ${describeLookalike(imitated)}: a tag that looks like a verified or merchant tag cannot be registered.`,
    {},
    { tag: displayTag(imitated.tag) },
  );
}
