import { address } from '@solana/kit';
import type { BuilderServices } from '@/lib/chain/chain-and-mirror';
import { recentPriorityFee } from '@/lib/chain/priority-fee';
import { AppError } from '@/lib/core/errors';
import { getChain, rpcCall } from '@/lib/chain/rpc';
import { describeLookalike, protectedLookalike } from '@/lib/features/identity/lookalikes';
import { displayTag, INVALID_TAG_MESSAGE } from '@/lib/core/tag';
import { normalizeTag } from '@/lib/core/tag';
import { checkTag } from './availability';
import { buildUnsignedTransaction } from '@/lib/chain/build-unsigned-transaction';
import { registerTagLimit } from '@/lib/chain/compute-units';
import { getRegisterTagInstruction } from '@/packages/tag-registry/src';
import { noopSigners } from '@/lib/chain/noop-signers';
import { unsafePayout, unsafePayoutReason, unsafePayoutWithoutRpc } from '@/lib/chain/payout-safety';
import type { RegisterRequest, RegisterResponse } from './schemas';

export const TAG_UNAVAILABLE_MESSAGE = 'This tag is taken, reserved or blocked.';

export interface BuildRegisterTransactionInput {
  /** The authenticated caller (the session token's `sub`): always the owner, never the body. */
  owner: string;
  /** The body, parsed by the route with RegisterRequest. */
  request: RegisterRequest;
}

/**
 * POST /v1/register (SPEC 4.5, DESIGN "Register"): an UNSIGNED legacy transaction with the
 * compute budget (a limit sized to this tag's worst case, a price from the recent fees of the
 * accounts it writes) and one `register_tag`, fee payer = the sponsor or the owner, a recent
 * blockhash. Its signers: the owner, the sponsor if any, and the payout wallet when it is
 * another key (it consents by signing, DESIGN "Payout rules"). Never signs, never submits,
 * never writes the mirror: the indexer creates the identity once it lands.
 * 400 bad body, tag or key; 400 `unsafe_payout` (lib/chain/payout-safety.ts, judged before the tag); 409 taken, reserved or blocked, 409 `lookalike` (it looks like an active
 * verified or merchant tag, named in the envelope's `tag`), or 409 `quarantined` (released and
 * resting, `until` in the envelope; the previous owner may register it); 503 cluster unreachable.
 */
export async function buildRegisterTransaction(
  { db, config }: BuilderServices,
  { owner, request }: BuildRegisterTransactionInput,
): Promise<RegisterResponse> {
  if (request.tag.trimStart().startsWith('@')) {
    throw new AppError('invalid_tag', 'Send the tag without a leading `@`.');
  }
  const tag = normalizeTag(request.tag);
  if (!tag) throw new AppError('invalid_tag', INVALID_TAG_MESSAGE);
  const ownerAddress = address(owner);
  const wallet = request.wallet ? address(request.wallet) : ownerAddress;
  const feePayer = request.feePayer ? address(request.feePayer) : ownerAddress;
  const { rpc, programAddress } = getChain(config);

  // What needs no chain first: a payout key off the curve costs no RPC call at all.
  const offline = unsafePayoutWithoutRpc(wallet);
  if (offline) throw unsafePayout(wallet, offline);
  // Then what can refuse the request, at once (the payout account, the mirror and the tag's
  // record); the blockhash and the fee estimate only for a request that will be answered with
  // a transaction, so a refused one spends none of the RPC quota on them.
  const [unsafe, check] = await Promise.all([
    unsafePayoutReason(rpc, wallet),
    checkTag(db, rpc, programAddress, tag, owner),
  ]);
  if (unsafe) throw unsafePayout(wallet, unsafe);
  if (check.reason === 'lookalike') throw lookalikeRefused(tag, check.lookalikes);
  if (check.reason === 'quarantined') throw quarantined(tag, check.until!);
  if (check.reason) throw new AppError('conflict', TAG_UNAVAILABLE_MESSAGE);
  const [{ value: latest }, microLamports] = await Promise.all([
    rpcCall(() => rpc.getLatestBlockhash({ commitment: 'confirmed' }).send()),
    recentPriorityFee(rpc, [check.pda, feePayer], config.priorityFee),
  ]);

  const signer = noopSigners();
  const instruction = getRegisterTagInstruction(
    {
      tagRecord: check.pda,
      owner: signer(ownerAddress),
      feePayer: signer(feePayer),
      wallet: signer(wallet),
      tag,
      walletArg: wallet,
    },
    { programAddress },
  );
  const { transaction, lastValidBlockHeight } = buildUnsignedTransaction({
    feePayer,
    latest,
    budget: { units: registerTagLimit(tag, check.bump), microLamports },
    instructions: [instruction],
  });
  return { transaction, pda: check.pda, lastValidBlockHeight };
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

/** 409 `quarantined`: the tag rests after its release; `until` (ISO 8601) says when anyone may register it. */
function quarantined(tag: string, until: string): AppError {
  return new AppError(
    'quarantined',
    `${displayTag(tag)} was released and rests until ${until}: until then only its previous owner may register it.`,
    {},
    { until },
  );
}
