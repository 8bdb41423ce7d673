import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startApp, type RunningApp } from '@/devstack/app';
import { insertIdentity } from '@/devstack/identities';
import { runAdmin } from '../support/admin-cli';
import { ownDatabase } from '../support/database';
import { signIn } from '../support/sign-in';
import { firstViewShowing, view } from './support';
import { liftedRateLimits } from '@/devstack/rate-limits';

/*
 * docs/operating.md, "Running several instances": two `npm start` instances (scripts/serve.ts) on one
 * PostgreSQL and one localnet, as behind a load balancer. A change made through one (or by
 * the admin command, which talks to neither) shows on the other's /@tag within 1 s of the
 * change's answer, although the other had served the page before.
 */

const database = ownDatabase({ poolSize: 2 });
let a: RunningApp;
let b: RunningApp;

beforeAll(async () => {
  const env = {
    DATABASE_URL: database.url,
    SOLANA_RPC_URL: inject('rpcUrl'),
    RATE_LIMITS: liftedRateLimits(['auth'], 1000),
  };
  [a, b] = await Promise.all([startApp(env), startApp(env)]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

describe('two instances on one database', () => {
  it('a PATCH through A shows on B within 1 s of its answer', async () => {
    const { token, keypair } = await signIn(a.url);
    const row = await insertIdentity(database.db, {
      owner: keypair.publicKey,
      wallet: keypair.publicKey,
      displayName: 'Before Patch',
    });
    const onB = `${b.url}/@${row.tag}`;
    for (let i = 0; i < 3; i++) expect((await view(onB)).html).toContain('Before Patch');

    const res = await fetch(`${a.url}/v1/identity/${row.tag}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ displayName: 'After Patch' }),
    });
    const answered = performance.now();
    expect(res.status).toBe(200);
    const ms = await firstViewShowing(
      onB,
      (page) => page.html.includes('After Patch') && !page.html.includes('Before Patch'),
      answered,
    );
    expect(ms).toBeLessThanOrEqual(1000);
    // And every spelling of the tag, on both.
    for (const url of [`${a.url}/@${row.tag.toUpperCase()}`, `${b.url}/%40${row.tag}`])
      expect((await view(url)).html).toContain('After Patch');
  });

  it('the admin command (no HTTP: it reaches no instance) blocks and unblocks: B shows each within 1 s', async () => {
    const row = await insertIdentity(database.db, { displayName: 'Moderated Name' });
    const onB = `${b.url}/@${row.tag}`;
    expect((await view(onB)).status).toBe(200);
    expect((await view(onB)).html).toContain('Moderated Name');

    const blocked = await runAdmin(['block', row.tag], database.url);
    const blockedAt = performance.now();
    expect([blocked.code, blocked.stderr]).toEqual([0, '']);
    const hidden = await firstViewShowing(
      onB,
      (page) => page.status === 404 && !page.html.includes('Moderated Name'),
      blockedAt,
    );
    expect(hidden).toBeLessThanOrEqual(1000);

    const unblocked = await runAdmin(['unblock', row.tag], database.url);
    const unblockedAt = performance.now();
    expect([unblocked.code, unblocked.stderr]).toEqual([0, '']);
    const back = await firstViewShowing(
      onB,
      (page) => page.status === 200 && page.html.includes('Moderated Name'),
      unblockedAt,
    );
    expect(back).toBeLessThanOrEqual(1000);
  });

  it('a tag first viewed as missing shows on both once it exists (a 404 is kept nowhere)', async () => {
    const row = await insertIdentity(database.db, { displayName: 'Late Arrival', status: 'blocked' });
    for (const app of [a, b]) expect((await view(`${app.url}/@${row.tag}`)).status).toBe(404);
    expect((await runAdmin(['unblock', row.tag], database.url)).code).toBe(0);
    for (const app of [a, b]) expect((await view(`${app.url}/@${row.tag}`)).html).toContain('Late Arrival');
  });
});
