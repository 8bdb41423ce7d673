import { afterAll, describe, expect, inject, it } from 'vitest';
import { parseWith } from '@/lib/http/parse';
import { AppError } from '@/lib/core/errors';
import { FeedQuery } from '@/lib/features/feed/feed-query';
import { clientHeaders, readResponse } from '../support/http';
import { signIn } from '../support/sign-in';
import { closeTestDb } from '../integrations/support';

/*
 * A feed cursor is two numbers: an xid8 (unsigned 64-bit) and an event id (read as a JS
 * number). Beyond those, PGlite failed the cast with a 500; now it is a 400 in the envelope
 * before any statement, on GET /v1/events and on a webhook's replay alike
 * (lib/features/feed/read-events.ts FeedCursor), whichever the driver.
 */

const appUrl = inject('appUrl');
afterAll(closeTestDb);

const MALFORMED = {
  error: { code: 'invalid_request', message: '`after`: must be a cursor returned as `next` by this feed' },
};
const TOO_LARGE = [
  ['an xid one past 2^64 - 1', '18446744073709551616-1'],
  ['an xid of 20 nines', '99999999999999999999-0'],
  ['an id past 2^53 - 1', '1-9007199254740992'],
  ['an id of 16 nines', '1-9999999999999999'],
] as const;

describe('oversized feed cursors', () => {
  it.each(TOO_LARGE)('the schema refuses %s, before any statement', (_name, cursor) => {
    expect(() => parseWith(FeedQuery, { after: cursor })).toThrow(
      new AppError('invalid_request', MALFORMED.error.message),
    );
  });

  it('the largest cursors that fit are accepted', () => {
    expect(parseWith(FeedQuery, { after: '18446744073709551615-9007199254740991' }).after).toEqual({
      xid: '18446744073709551615',
      id: 9007199254740991,
    });
  });

  it.each(TOO_LARGE)('GET /v1/events with %s: 400 in the envelope', async (_name, cursor) => {
    const res = await readResponse(await fetch(`${appUrl}/v1/events?after=${cursor}`, { headers: clientHeaders() }));
    expect([res.status, res.json]).toEqual([400, MALFORMED]);
  });

  it('GET /v1/events after the largest cursor that fits: an empty page, not an error', async () => {
    const cursor = '18446744073709551615-9007199254740991';
    const res = await readResponse(await fetch(`${appUrl}/v1/events?after=${cursor}`, { headers: clientHeaders() }));
    expect([res.status, res.json]).toEqual([200, { events: [], next: cursor }]);
  });

  it.each(TOO_LARGE)('POST /v1/webhooks/{id}/replay with %s: 400 in the envelope', async (_name, cursor) => {
    const { token } = await signIn(appUrl);
    const res = await readResponse(
      await fetch(`${appUrl}/v1/webhooks/wh_000000000000000000000000/replay`, {
        method: 'POST',
        headers: { ...clientHeaders(), authorization: `Bearer ${token}` },
        body: JSON.stringify({ after: cursor }),
      }),
    );
    expect([res.status, res.json]).toEqual([400, MALFORMED]);
  });
});

describe('malformed cursors', () => {
  it.each(['12', 'a-b', '-', '1-', '1-2-3'])('%s: the one 400, not two issues or a crash', (cursor) => {
    expect(() => parseWith(FeedQuery, { after: cursor })).toThrow(
      new AppError('invalid_request', MALFORMED.error.message),
    );
  });
});
