import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { DeliveryDeduplicator, verifyWebhook, WebhookVerificationError } from '@/packages/client/src';

const secret = `whsec_${randomBytes(24).toString('base64')}`;
const event = { id: 42, tag: '@alice', type: 'remove', identity: null, at: '2026-11-25T12:00:00.000Z' };
const body = JSON.stringify(event);

function signedHeaders(at: Date, payload = body, key = secret): Record<string, string> {
  return {
    'webhook-id': '42',
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(key).sign('42', at, payload),
  };
}

describe('verifyWebhook (Standard Webhooks)', () => {
  it('returns the event of a delivery signed with the secret, headers in any case', () => {
    expect(verifyWebhook(secret, body, signedHeaders(new Date()))).toEqual(event);
    const upper = Object.fromEntries(Object.entries(signedHeaders(new Date())).map(([k, v]) => [k.toUpperCase(), v]));
    expect(verifyWebhook(secret, body, upper)).toEqual(event);
    expect(verifyWebhook(secret, body, new Headers(signedHeaders(new Date())))).toEqual(event);
  });

  it.each([
    ['a changed body', () => verifyWebhook(secret, body.replace('alice', 'a1ice'), signedHeaders(new Date()))],
    [
      'another secret',
      () => verifyWebhook(secret, body, signedHeaders(new Date(), body, `whsec_${randomBytes(24).toString('base64')}`)),
    ],
    [
      'a timestamp ten minutes old (a replay)',
      () => verifyWebhook(secret, body, signedHeaders(new Date(Date.now() - 600_000))),
    ],
    [
      'no signature',
      () =>
        verifyWebhook(secret, body, { 'webhook-id': '42', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)) }),
    ],
  ])('refuses %s', (_name, verify) => {
    expect(verify).toThrow(WebhookVerificationError);
  });

  it('a deduplicator applies each webhook-id once', () => {
    const dedupe = new DeliveryDeduplicator();
    expect([dedupe.firstTime('1'), dedupe.firstTime('2'), dedupe.firstTime('1')]).toEqual([true, true, false]);
  });
});
