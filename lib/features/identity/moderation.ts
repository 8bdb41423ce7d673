import type { Db } from '@/lib/db';
import type { IdentityRow } from '@/lib/db/schema';
import { changeIdentity } from './change-identity';
import { parseTagParam } from './get-identity';
import { toIdentity } from './identity-response';
import type { Identity } from './schemas';

export const MODERATION_ACTIONS = ['block', 'unblock', 'verify', 'unverify', 'merchant', 'unmerchant'] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

const CHANGES: Record<ModerationAction, Partial<Pick<IdentityRow, 'status' | 'verified' | 'merchant'>>> = {
  block: { status: 'blocked' },
  unblock: { status: 'active' },
  verify: { verified: true },
  unverify: { verified: false },
  merchant: { merchant: true },
  unmerchant: { merchant: false },
};

export function isModerationAction(value: string): value is ModerationAction {
  return (MODERATION_ACTIONS as readonly string[]).includes(value);
}

/** The identity as moderators see it: the public object plus its status. */
export type ModeratedIdentity = Identity & { status: IdentityRow['status'] };

/**
 * Changes a tag's status or moderation flags (DESIGN.md "Identity"): only the admin CLI calls
 * this; nothing under /v1 can. Works on blocked tags too; 400 malformed tag, 404 no such row.
 */
export async function moderate(
  db: Db,
  tagInput: string,
  action: ModerationAction,
  now: Date = new Date(),
): Promise<ModeratedIdentity> {
  const tag = parseTagParam(tagInput);
  const row = await changeIdentity(db, tag, CHANGES[action], now);
  return { ...toIdentity(row), status: row.status };
}
