import { fetchEncodedAccount, parseBase64RpcAccount, type Address, type MaybeEncodedAccount } from '@solana/kit';
import type { AccountBytes } from '@/lib/chain/account-bytes';
import { KeptBytes } from '@/lib/core/kept-bytes';
import { rpcCall, type SolanaRpc } from '@/lib/chain/rpc';
import { rpcKey } from '@/lib/chain/rpc-key';
import { unsafePayoutOfAccount, unsafePayoutWithoutRpc, type UnsafePayoutReason } from '@/lib/chain/payout-safety';
import { liveRecord, recordAt } from '@/lib/chain/record-states';
import { findTagRecordPda } from '@/packages/tag-registry/src';

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
 * Kept per cluster client (lib/chain/rpc-key.ts), program, tag and mirrored wallet for KEPT_MS:
 * every issuing route of a tag asked within that time shares one read (a till showing a code a
 * second, a burst of clicks on /pay/{tag}), and a change on chain is seen within it. Entries
 * are small (about 300 bytes); the budget bounds memory, not freshness.
 */
const KEPT_MS = 1_500;
const KEPT_BYTES = 1_000_000;
const ENTRY_BYTES = 300;
const kept = new KeptBytes<PayeeOnChain>(KEPT_BYTES, () => ENTRY_BYTES);

export interface PayeeQuestion {
  rpc: SolanaRpc;
  programAddress: Address;
  /** The canonical tag (no `@`). */
  tag: string;
  /** The payout wallet the mirror holds: read beside the record, as it is almost always the same. */
  mirroredWallet: string;
  now?: number;
}

/** The tag's record and payout account on chain at `confirmed` (see above); 503 when the cluster cannot be reached. */
export function readPayeeOnChain(question: PayeeQuestion): Promise<PayeeOnChain> {
  const { rpc, programAddress, tag, mirroredWallet, now = Date.now() } = question;
  const key = `${rpcKey(rpc)} ${programAddress} ${tag} ${mirroredWallet}`;
  return kept.getOrMake(key, now, async () => {
    const read = await readNow(rpc, programAddress, tag, mirroredWallet as Address);
    kept.set(key, read, now + KEPT_MS);
    return read;
  });
}

async function readNow(rpc: SolanaRpc, programAddress: Address, tag: string, mirrored: Address): Promise<PayeeOnChain> {
  const [pda] = await findTagRecordPda({ tag }, { programAddress });
  // Kit's fetchEncodedAccounts drops the context; the slot is part of the answer, so the call is made here.
  const { context, value } = await rpcCall(() =>
    rpc.getMultipleAccounts([pda, mirrored], { encoding: 'base64', commitment: 'confirmed' }).send(),
  );
  const slot = Number(context.slot);
  const [recordAccount, mirroredAccount] = [pda, mirrored].map((at, i) => parseBase64RpcAccount(at, value[i] ?? null));
  // What counts as the tag's live record is the indexer's rule (./record-states.ts).
  const record = liveRecord(recordAt(programAddress, pda, bytesOf(recordAccount!)));
  if (!record) return { record: null, unsafe: null, slot };
  const wallet = record.wallet;
  const answer = { owner: record.owner, wallet };
  const offline = unsafePayoutWithoutRpc(wallet);
  if (offline) return { record: answer, unsafe: offline, slot };
  const account =
    wallet === mirrored
      ? mirroredAccount!
      : await rpcCall(() => fetchEncodedAccount(rpc, wallet, { commitment: 'confirmed' }));
  return { record: answer, unsafe: unsafePayoutOfAccount(account.exists ? account : null), slot };
}

/** An account kit fetched, as the record rule reads it (null when none is there). */
function bytesOf(account: MaybeEncodedAccount): AccountBytes | null {
  return account.exists ? { owner: account.programAddress, data: new Uint8Array(account.data) } : null;
}
