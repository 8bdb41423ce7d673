import bs58 from 'bs58';
import { address, type Address, type Base58EncodedBytes } from '@solana/kit';
import { accountBytesOf } from '@/lib/chain/account-bytes';
import type { ChainAndMirror } from '@/lib/chain/chain-and-mirror';
import type { Db } from '@/lib/db';
import { identities, type IdentityRow } from '@/lib/db/schema';
import { rpcCall, type SolanaRpc } from '@/lib/chain/rpc';
import { TAG_RECORD_DISCRIMINATOR, TAG_RECORD_SIZE } from '@/packages/tag-registry/src';
import { mirroredFields, mirrorTouchedRecords, noChanges, type MirrorChanges, type Provenance } from './mirror-records';
import { liveRecord, recordAt, type TagRecord } from '@/lib/chain/record-states';

/** One way the mirror and the chain disagree about a tag. */
export type MirrorDifference =
  | { kind: 'missing-row'; tag: string; address: string; chain: MirroredState }
  | { kind: 'row-without-record'; tag: string; address: string; mirror: MirroredState }
  | { kind: 'mismatch'; tag: string; address: string; fields: FieldDifference[] };

/** What the mirror copies from a record. */
export interface MirroredState {
  owner: string;
  wallet: string;
  pendingOwner: string | null;
  createdAt: string;
}

export interface FieldDifference {
  field: 'owner' | 'wallet' | 'pendingOwner' | 'createdAt' | 'pda';
  mirror: string | null;
  chain: string | null;
}

export interface ReconcileReport {
  /** Live records of the program on chain (getProgramAccounts at `finalized`), resting ones left out. */
  records: number;
  /** Rows in the mirror, blocked ones included. */
  rows: number;
  differences: MirrorDifference[];
  /** With `repair`: what making the mirror match changed. */
  repaired: MirrorChanges | null;
}

export interface ReconcileInput extends ChainAndMirror {
  /** Make the mirror match the chain (through the indexer's own writer), not only report. */
  repair: boolean;
  now: Date;
}

/**
 * Compares the mirror with every record of the program (DESIGN "Indexer", Reconcile):
 * getProgramAccounts filtered on the TagRecord size and discriminator, against every row.
 * Reports a record without a row, a row without a record, and a row whose owner, wallet,
 * pending owner, creation time (a re-registration) or stored address differ. With `repair`,
 * hands the addresses of those differences to the indexer's writer, which takes the mirror
 * lock, reads them again and makes the rows match (change-feed events included): the mirror
 * can be rebuilt from chain state alone, even where a node has pruned signature history.
 */
export async function reconcileMirror({
  db,
  rpc,
  programAddress,
  repair,
  now,
}: ReconcileInput): Promise<ReconcileReport> {
  const [records, rows] = await Promise.all([listRecords(rpc, programAddress), db.select().from(identities)]);
  const differences = compare(records, rows);
  const report: ReconcileReport = { records: records.size, rows: rows.length, differences, repaired: null };
  if (!repair) return report;
  if (differences.length === 0) {
    report.repaired = noChanges();
    return report;
  }
  const touched = new Map<string, Provenance>();
  for (const difference of differences) touched.set(difference.address, await provenanceOf(rpc, difference.address));
  const changes = await db.transaction((tx) =>
    mirrorTouchedRecords(tx as unknown as Db, { rpc, programAddress, touched, now }),
  );
  report.repaired = changes;
  return report;
}

/** Every live TagRecord of the program at `finalized`, by address: a resting record is no identity (`liveRecord`). */
async function listRecords(rpc: SolanaRpc, programAddress: Address): Promise<Map<string, TagRecord>> {
  const accounts = await rpcCall(() =>
    rpc
      .getProgramAccounts(programAddress, {
        commitment: 'finalized',
        encoding: 'base64',
        filters: [
          { dataSize: BigInt(TAG_RECORD_SIZE) },
          {
            memcmp: {
              offset: 0n,
              bytes: bs58.encode(TAG_RECORD_DISCRIMINATOR) as Base58EncodedBytes,
              encoding: 'base58',
            },
          },
        ],
      })
      .send(),
  );
  const records = new Map<string, TagRecord>();
  for (const { pubkey, account } of accounts) {
    const record = liveRecord(recordAt(programAddress, pubkey, accountBytesOf(account)));
    if (record) records.set(pubkey, record);
  }
  return records;
}

function compare(records: Map<string, TagRecord>, rows: IdentityRow[]): MirrorDifference[] {
  const byTag = new Map(rows.map((row) => [row.tag, row]));
  const recordTags = new Set<string>();
  const differences: MirrorDifference[] = [];
  for (const [address, record] of records) {
    recordTags.add(record.tag);
    const row = byTag.get(record.tag);
    const chain = stateOfRecord(record, address);
    if (!row) {
      differences.push({ kind: 'missing-row', tag: record.tag, address, chain });
      continue;
    }
    const mirror = stateOfRow(row);
    const fields: FieldDifference[] = [];
    for (const field of ['owner', 'wallet', 'pendingOwner', 'createdAt'] as const) {
      if (mirror[field] !== chain[field]) fields.push({ field, mirror: mirror[field], chain: chain[field] });
    }
    if (row.pda !== address) fields.push({ field: 'pda', mirror: row.pda, chain: address });
    if (fields.length) differences.push({ kind: 'mismatch', tag: record.tag, address, fields });
  }
  for (const row of rows) {
    if (recordTags.has(row.tag)) continue;
    differences.push({ kind: 'row-without-record', tag: row.tag, address: row.pda, mirror: stateOfRow(row) });
  }
  return differences.sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
}

/** What the indexer's writer would store for the record (its own mapping), as a report shows it. */
function stateOfRecord(record: TagRecord, address: string): MirroredState {
  const { owner, wallet, pendingOwner, createdAt } = mirroredFields(record, address);
  return { owner, wallet, pendingOwner, createdAt: createdAt.toISOString() };
}

function stateOfRow(row: IdentityRow): MirroredState {
  return {
    owner: row.owner,
    wallet: row.wallet,
    pendingOwner: row.pendingOwner,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * The newest transaction that touched the record, stamped on the row a repair writes. A node
 * that has pruned it answers nothing: the row then carries no signature ('') and slot 0.
 */
async function provenanceOf(rpc: SolanaRpc, account: string): Promise<Provenance> {
  const [newest] = await rpcCall(() =>
    rpc.getSignaturesForAddress(address(account), { limit: 1, commitment: 'finalized' }).send(),
  );
  return newest ? { signature: newest.signature, slot: Number(newest.slot) } : { signature: '', slot: 0 };
}
