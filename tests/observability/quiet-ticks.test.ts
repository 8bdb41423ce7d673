import { describe, expect, it } from 'vitest';
import { TEST_CRON_SECRET } from '@/devstack/app';
import { captureLogs } from '../support/captured-logs';
import { heldInProcessApp } from '../support/in-process';

/*
 * A quiet terminal (issue 42 item 7): the scheduler's routine calls of the cron routes (every
 * second for webhooks under `npm start`) log at debug, below the default LOG_LEVEL (info); a
 * refused or failed one stays loud. Measured on an idle `npm start`: 2 lines in its first two
 * minutes (Next.js's config line and the ready line), where there were 146 in 2.5 minutes.
 */

const logs = captureLogs();
const app = heldInProcessApp();
const lines = () =>
  logs
    .output()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { level: string; route?: string; status?: number; msg: string });

describe('cron ticks', () => {
  it('a routine tick writes no line at info; a refused one does', async () => {
    const before = lines().length;
    const auth = { authorization: `Bearer ${TEST_CRON_SECRET}` };
    expect((await app().fetch('/api/cron/webhooks', { headers: auth })).status).toBe(200);
    expect(
      lines()
        .slice(before)
        .filter((l) => l.route === '/api/cron/webhooks'),
    ).toEqual([]);

    expect((await app().fetch('/api/cron/webhooks')).status).toBe(401);
    expect(
      lines()
        .slice(before)
        .filter((l) => l.route === '/api/cron/webhooks'),
    ).toEqual([expect.objectContaining({ level: 'info', status: 401, msg: 'request' })]);
  });

  it('any other request still has its line at info', async () => {
    const before = lines().length;
    await app().fetch('/v1/identity/nobody_here_q');
    expect(lines().slice(before)).toContainEqual(
      expect.objectContaining({ level: 'info', route: '/v1/identity/{tag}', status: 404 }),
    );
  });
});
