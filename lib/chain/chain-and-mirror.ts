import type { Connection, PublicKey } from '@solana/web3.js';
import type { Config } from '@/lib/core/config';
import type { Db } from '@/lib/db';

/**
 * What every service reading the tag registry and its mirror is handed by its route or job:
 * the database, the cluster, and the program's address (DESIGN "Indexer": the chain decides,
 * the mirror follows).
 */
export interface ChainAndMirror {
  db: Db;
  connection: Connection;
  programId: PublicKey;
}

/**
 * What a transaction builder is handed by its route or server action: the mirror, and the
 * configuration it takes the cluster, the program and the compute price (`priorityFee`) from.
 */
export interface BuilderServices {
  db: Db;
  config: Pick<Config, 'solana' | 'priorityFee'>;
}
