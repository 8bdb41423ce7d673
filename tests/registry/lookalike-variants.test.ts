// Look-alikes of verified tags are refused (lib/core/skeleton.ts, lib/features/registry/availability.ts):
// 44 variants of five verified originals each answer `lookalike` on GET /v1/availability, the
// red team's nine answer 409 on POST /v1/register, and distinct names beside them stay available.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { insertIdentity } from '@/devstack/identities';
import { moderate } from '@/lib/features/identity/moderation';
import { stackDatabase } from '../support/database';
import { clientHeaders, readResponse, postAuthed } from '../support/http';
import { signIn } from '../support/sign-in';
import { DISTINCT_CONTROLS, LOOKALIKE_VARIANTS } from '../identity/lookalike-variants';

const appUrl = inject('appUrl');
const database = stackDatabase({ poolSize: 2 });

/** Letters that no skeleton rule changes and that join no pair: keeps this run's tags apart from every other's. */
const suffix = [...randomBytes(8)].map((b) => 'aeghkptxyz'[b % 10]).join('');

const availability = async (tag: string) =>
  readResponse(await fetch(`${appUrl}/v1/availability/${tag}`, { headers: clientHeaders() }));

describe('look-alike variants of verified tags', () => {
  beforeAll(async () => {
    for (const original of Object.keys(LOOKALIKE_VARIANTS)) {
      await insertIdentity(database.db, { tag: `${original}${suffix}` });
      await moderate(database.db, `${original}${suffix}`, 'verify');
    }
  });

  const variants = Object.entries(LOOKALIKE_VARIANTS).flatMap(([original, list]) =>
    list.map((variant) => [variant, original] as const),
  );

  it.each(variants)('%s is refused beside a verified %s', async (variant, original) => {
    const tag = `${variant}${suffix}`;
    const res = await availability(tag);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      tag,
      available: false,
      reason: 'lookalike',
      lookalikes: [{ tag: `@${original}${suffix}`, verified: true, merchant: false }],
      warning: `@${tag} looks like @${original}${suffix} (verified). Tags that look like a verified or merchant tag cannot be registered.`,
    });
  });

  it.each(['9oogle', 'qoogle', 'coinbas3', 'w4llet', 'uuallet', '4lice', 'alic3', 'nnarket', 'rnarke7'])(
    'POST /v1/register %s: 409 lookalike',
    async (variant) => {
      const { token } = await signIn(appUrl);
      const original = variants.find(([v]) => v === variant)![1];
      const tag = `${variant}${suffix}`;
      const res = await postAuthed(`${appUrl}/v1/register`, token, { tag });
      expect([res.status, res.json]).toEqual([
        409,
        {
          error: {
            code: 'lookalike',
            message: `@${tag} looks like @${original}${suffix} (verified): a tag that looks like a verified or merchant tag cannot be registered.`,
            tag: `@${original}${suffix}`,
          },
        },
      ]);
    },
  );

  it.each(DISTINCT_CONTROLS)('%s stays available', async (control) => {
    const tag = `${control}${suffix}`;
    const res = await availability(tag);
    expect([res.status, res.json]).toEqual([
      200,
      { tag, available: true, reason: null, lookalikes: [], warning: null },
    ]);
  });
});
