import { afterAll, describe, expect, inject, it } from 'vitest';
import { admin, runAdmin } from '../support/admin-cli';
import { closeTestDb, expectedIdentity, get, NOT_FOUND, readRow, seedIdentity } from './helpers';

afterAll(closeTestDb);

// The command runs in this process (tests/support/admin-cli.ts `admin`); the first test runs
// `npm run admin` itself, in a process of its own, end to end.

describe('npm run admin (moderation CLI)', () => {
  it('runs as the npm script: blocks a tag in a process of its own, and a usage error exits 2', async () => {
    const row = await seedIdentity();
    const blocked = await runAdmin(['block', row.tag], inject('databaseUrl'));
    expect(blocked.code, blocked.stderr).toBe(0);
    expect(JSON.parse(blocked.stdout)).toEqual({ ...expectedIdentity(row), status: 'blocked' });
    expect((await get(`/v1/identity/${row.tag}`)).json).toEqual(NOT_FOUND);
    const usage = await runAdmin(['delete', row.tag], inject('databaseUrl'));
    expect(usage.code).toBe(2);
    expect(usage.stdout).toBe('');
    expect(usage.stderr).toMatch(/^usage: npm run admin -- </);
  });

  it('block hides the tag (404), unblock shows it again', async () => {
    const row = await seedIdentity();
    const blocked = await admin('block', row.tag);
    expect(blocked.code).toBe(0);
    expect(JSON.parse(blocked.stdout)).toEqual({ ...expectedIdentity(row), status: 'blocked' });
    expect((await get(`/v1/identity/${row.tag}`)).json).toEqual(NOT_FOUND);
    expect((await get(`/v1/resolve/${row.tag}`)).json).toEqual(NOT_FOUND);

    const unblocked = await admin('unblock', `@${row.tag}`);
    expect(unblocked.code).toBe(0);
    expect(JSON.parse(unblocked.stdout)).toMatchObject({ tag: `@${row.tag}`, status: 'active' });
    expect((await get(`/v1/identity/${row.tag}`)).json).toEqual(expectedIdentity(row));
  });

  it('verify / unverify and merchant / unmerchant set the flags a GET shows', async () => {
    const row = await seedIdentity();
    const STEPS: [action: string, flags: { verified: boolean; merchant: boolean }][] = [
      ['verify', { verified: true, merchant: false }],
      ['merchant', { verified: true, merchant: true }],
      ['unverify', { verified: false, merchant: true }],
      ['unmerchant', { verified: false, merchant: false }],
    ];
    for (const [action, flags] of STEPS) {
      const res = await admin(action, row.tag.toUpperCase());
      expect(res.code, res.stderr).toBe(0);
      expect((await get(`/v1/identity/${row.tag}`)).json).toEqual({ ...expectedIdentity(row), ...flags });
    }
  });

  const FAILURES: Record<string, { args: string[]; code: number; stderr: RegExp }> = {
    'an unknown tag': {
      args: ['block', 'zz_no_such_tag_here'],
      code: 1,
      stderr: /^error: not_found: No identity with this tag\.\n$/,
    },
    'a malformed tag': { args: ['verify', 'a-b'], code: 1, stderr: /^error: invalid_tag: The tag must be/ },
    'an unknown action': {
      args: ['delete', 'alice'],
      code: 2,
      stderr: /^usage: npm run admin -- <block\|unblock\|verify\|unverify\|merchant\|unmerchant\|redact> <tag>\n$/,
    },
    'no arguments': { args: [], code: 2, stderr: /^usage: / },
    'too many arguments': { args: ['block', 'alice', 'bob'], code: 2, stderr: /^usage: / },
  };
  for (const [name, c] of Object.entries(FAILURES)) {
    it(`fails clearly on ${name}`, async () => {
      const res = await admin(...c.args);
      expect(res.code).toBe(c.code);
      expect(res.stdout).toBe('');
      expect(res.stderr).toMatch(c.stderr);
    });
  }

  it('a blocked row keeps its profile: unblocking restores it unchanged', async () => {
    const row = await seedIdentity({ displayName: 'Kept', bio: 'Kept too' });
    await admin('block', row.tag);
    expect(await readRow(row.tag)).toMatchObject({ status: 'blocked', displayName: 'Kept', bio: 'Kept too' });
    await admin('unblock', row.tag);
    expect((await get(`/v1/identity/${row.tag}`)).json).toEqual(expectedIdentity(row));
  });
});
