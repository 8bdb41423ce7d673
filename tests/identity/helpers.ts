import { eq } from 'drizzle-orm';
import { inject } from 'vitest';
import { openDb, type DbHandle } from '@/lib/db/client';
import { identities, type IdentityRow, type NewIdentityRow } from '@/lib/db/schema';
import { insertIdentity } from '@/devstack/identities';
import { clientHeaders, readResponse, withCheckedError, type ApiResponse } from '../support/http';
import { IDENTITY_FIELDS } from '../support/identity';

/*
 * Identity rows are made here by inserting into the mirror directly: the indexer that
 * creates them for real is tested elsewhere. Every test uses its own random tag.
 */

export const appUrl = inject('appUrl');

let handle: Promise<DbHandle> | undefined;

/** The test PostgreSQL, one small pool per test file; close it in afterAll. */
export function testDb(): Promise<DbHandle> {
  handle ??= openDb({ driver: 'node-postgres', url: inject('databaseUrl') }, { poolSize: 4 });
  return handle;
}

export async function closeTestDb(): Promise<void> {
  if (handle) await (await handle).close();
  handle = undefined;
}

export const CREATED_AT = new Date('2025-03-04T05:06:07.089Z');

/** Inserts an identity (active, no profile, created at CREATED_AT) and returns its row. */
export async function seedIdentity(overrides: Partial<NewIdentityRow> = {}): Promise<IdentityRow> {
  return insertIdentity((await testDb()).db, { createdAt: CREATED_AT, ...overrides });
}

export async function readRow(tag: string): Promise<IdentityRow | null> {
  const { db } = await testDb();
  const rows = await db.select().from(identities).where(eq(identities.tag, tag));
  return rows[0] ?? null;
}

export async function get(path: string, headers: Record<string, string> = {}): Promise<ApiResponse> {
  return readResponse(await fetch(`${appUrl}${path}`, { headers }));
}

/** PATCH /v1/identity/{tag}: objects are sent as JSON, strings and bytes as they are. */
export async function patchIdentity(tagPath: string, body: unknown, token?: string): Promise<ApiResponse> {
  const headers: Record<string, string> = clientHeaders();
  if (token) headers.authorization = `Bearer ${token}`;
  const payload =
    typeof body === 'string' || body instanceof Uint8Array ? (body as Uint8Array<ArrayBuffer>) : JSON.stringify(body);
  const url = `${appUrl}/v1/identity/${tagPath}`;
  return withCheckedError(
    url,
    'PATCH',
    await readResponse(await fetch(url, { method: 'PATCH', headers, body: payload })),
  );
}

/** SPEC 2.1's fields that a response shows as the row stores them (all but `tag` and `createdAt`). */
const SHOWN_AS_STORED = IDENTITY_FIELDS.filter(
  (field): field is Exclude<(typeof IDENTITY_FIELDS)[number], 'tag' | 'createdAt'> =>
    field !== 'tag' && field !== 'createdAt',
);

/**
 * The public identity the API should show for a row (SPEC 2.1). Stated from the SPEC's table,
 * independently of lib/features/identity/identity-response.ts, so a mapping that drops or renames a
 * field fails the tests instead of agreeing with itself.
 */
export function expectedIdentity(row: IdentityRow) {
  const asStored = Object.fromEntries(SHOWN_AS_STORED.map((field) => [field, row[field]]));
  return {
    tag: `@${row.tag}`,
    ...(asStored as Pick<IdentityRow, (typeof SHOWN_AS_STORED)[number]>),
    createdAt: row.createdAt.toISOString(),
  };
}

export const NOT_FOUND = { error: { code: 'not_found', message: 'No identity with this tag.' } };
export const INVALID_TAG = {
  error: {
    code: 'invalid_tag',
    message:
      'The tag must be 3 to 32 characters: lower-case letters, digits and underscores, not starting or ending with an underscore.',
  },
};
export const UNAUTHORIZED = { error: { code: 'unauthorized', message: 'A valid session token is required.' } };
export const FORBIDDEN = { error: { code: 'forbidden', message: 'This tag belongs to another public key.' } };
export const invalidRequest = (message: string) => ({ error: { code: 'invalid_request', message } });
