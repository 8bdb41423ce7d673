import pg from 'pg';
import { recordAddressOf } from '@/devstack/identities';

/**
 * Direct access to the e2e database, for set-up and clean-up only: what a test checks, it
 * checks through the pages and /v1.
 */
async function withClient<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export interface SeedRow {
  tag: string;
  owner: string;
  displayName?: string | null;
  bio?: string | null;
  avatar?: string | null;
  preferredToken?: string | null;
  verified?: boolean;
  merchant?: boolean;
}

/** An identity as if the indexer had mirrored it (its on-chain record is not created). */
export async function seedIdentity(row: SeedRow): Promise<void> {
  await withClient((c) =>
    c.query(
      `INSERT INTO identities (tag, pda, owner, wallet, display_name, avatar, bio, preferred_token, verified, merchant, status, created_at, signature, slot)
       VALUES ($1, $9, $2, $2, $3, $4, $5, $6, $7, $8, 'active', now(), 'e2e-seed', 0)`,
      [
        row.tag,
        row.owner,
        row.displayName ?? null,
        row.avatar ?? null,
        row.bio ?? null,
        row.preferredToken ?? null,
        row.verified ?? false,
        row.merchant ?? false,
        recordAddressOf(row.tag),
      ],
    ),
  );
}

export async function deleteIdentities(tags: string[]): Promise<void> {
  if (tags.length === 0) return;
  await withClient((c) => c.query('DELETE FROM identities WHERE tag = ANY($1)', [tags]));
}

export async function identityRow(tag: string): Promise<Record<string, unknown> | null> {
  return withClient(async (c) => (await c.query('SELECT * FROM identities WHERE tag = $1', [tag])).rows[0] ?? null);
}
