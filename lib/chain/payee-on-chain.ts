import { PublicKey, type Connection } from '@solana/web3.js';
import { address } from '@solana/kit';
import { KeptBytes } from '@/lib/core/kept-bytes';
import { rpcCall } from '@/lib/chain/rpc';
import { liveRecord, recordAt } from '@/lib/chain/record-states';
import { unsafePayoutOfAccount, unsafePayoutWithoutRpc, type UnsafePayoutReason } from '@/lib/chain/payout-safety';
import { findTagRecordAddress } from '@/packages/tag-registry/src/web3js';

/*
 * Truth at issue time (DESIGN "Payments and receipts"): before a payment request is handed out,
 * the tag's record and its payout account as the cluster holds them now, not as the mirror
 * last saw them. One getMultipleAccounts reads both: the record at its PDA and the wallet the
 * mirror names. Only when the record names another wallet (the mirror lags a change) is that
 * wallet read too, a second call.
 */

export interface PayeeOnChain {
  /** Null: no live record (released, resting, or never registered): nothing may be paid to the tag. */
  record: { owner: string; wallet: string } | null;
  /** Why SOL sent to the record's wallet would be lost, or null. */
  unsafe: UnsafePayoutReason | null;
  /** The slot the cluster answered at. */
  slot: number;
}

/**
 * Kept per cluster endpoint, program, tag and mirrored wallet for KEPT_MS: every issuing
 * route of a tag asked within that time shares one read (a till showing a code a second, a
 * burst of clicks on /pay/{tag}), and a change on chain is seen within it. Entries are small
 * (about 300 bytes); the budget bounds memory, not freshness.
 */
const KEPT_MS = 1_500;
const KEPT_BYTES = 1_000_000;
const ENTRY_BYTES = 300;
const kept = new KeptBytes<PayeeOnChain>(KEPT_BYTES, () => ENTRY_BYTES);

export interface PayeeQuestion {
  connection: Connection;
  programId: PublicKey;
  /** The canonical tag (no `@`). */
  tag: string;
  /** The payout wallet the mirror holds: read beside the record, as it is almost always the same. */
  mirroredWallet: string;
  now?: number;
}

/** The tag's record and payout account on chain at `confirmed` (see above); 503 when the cluster cannot be reached. */
export function readPayeeOnChain(question: PayeeQuestion): Promise<PayeeOnChain> {
  const { connection, programId, tag, mirroredWallet, now = Date.now() } = question;
  const key = `${connection.rpcEndpoint} ${programId.toBase58()} ${tag} ${mirroredWallet}`;
  return kept.getOrMake(key, now, async () => {
    const read = await readNow(connection, programId, tag, new PublicKey(mirroredWallet));
    kept.set(key, read, now + KEPT_MS);
    return read;
  });
}

async function readNow(
  connection: Connection,
  programId: PublicKey,
  tag: string,
  mirrored: PublicKey,
): Promise<PayeeOnChain> {
  const [pda] = findTagRecordAddress(tag, programId);
  const { context, value } = await rpcCall(() =>
    connection.getMultipleAccountsInfoAndContext([pda, mirrored], 'confirmed'),
  );
  const held = value[0] && { owner: address(value[0].owner.toBase58()), data: value[0].data };
  const record = liveRecord(recordAt(address(programId.toBase58()), pda.toBase58(), held ?? null));
  if (!record) return { record: null, unsafe: null, slot: context.slot };
  const wallet = new PublicKey(record.wallet);
  const answer = { owner: record.owner, wallet: record.wallet };
  const offline = unsafePayoutWithoutRpc(wallet);
  if (offline) return { record: answer, unsafe: offline, slot: context.slot };
  const account = wallet.equals(mirrored)
    ? (value[1] ?? null)
    : await rpcCall(() => connection.getAccountInfo(wallet, 'confirmed'));
  return { record: answer, unsafe: unsafePayoutOfAccount(account), slot: context.slot };
}
