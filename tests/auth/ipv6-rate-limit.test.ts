import { describe, expect, it } from 'vitest';
import { parseConfig } from '@/lib/core/config';
import { rateLimitSubject } from '@/lib/http/client-address';
import { rateLimitTicket } from '@/lib/http/rate-limit';
import { rateLimitsSetting } from '@/devstack/rate-limits';
import { ownDatabase } from '../support/database';

/*
 * Rate limits key an IPv6 client by its /64 (lib/http/client-address.ts, rateLimitSubject): a
 * subscriber handed a /64 picks any of its addresses at will, so a budget per address would be
 * no budget. Counted on a real database, behind a configured proxy so the test names the address.
 */

const database = ownDatabase();

describe('rateLimitSubject', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
    ['2001:db8:1:2::192.0.2.1', '2001:db8:1:2::/64'],
  ])('%s counts as %s', (address, subject) => {
    expect(rateLimitSubject(address)).toBe(subject);
  });
});

describe('a rate limit over IPv6', () => {
  const config = parseConfig({
    CLIENT_ADDRESS_SOURCE: 'proxy',
    TRUSTED_PROXY_HOPS: '1',
    RATE_LIMITS: rateLimitsSetting({ payments: { limit: 3, windowSeconds: 3600 } }),
  });

  async function counted(address: string): Promise<'allowed' | number> {
    const services = { config, authDb: database.db };
    const ticket = rateLimitTicket(services, 'payments', new Headers({ 'x-forwarded-for': address }), new Date());
    try {
      await ticket.count(database.db);
      return 'allowed';
    } catch (err) {
      return (err as { status: number }).status;
    }
  }

  it('addresses of one /64 share one budget; another /64 has its own', async () => {
    const sameBlock = ['2001:db8:aa:1::1', '2001:db8:aa:1::2', '2001:db8:aa:1:ffff::9', '2001:db8:aa:1::abcd'];
    const answers = [];
    for (const address of sameBlock) answers.push(await counted(address));
    expect(answers).toEqual(['allowed', 'allowed', 'allowed', 429]);
    expect(await counted('2001:db8:aa:2::1')).toBe('allowed');
  });

  it('IPv4 addresses keep a budget each', async () => {
    for (let i = 0; i < 3; i++) expect(await counted('198.51.100.1')).toBe('allowed');
    expect(await counted('198.51.100.1')).toBe(429);
    expect(await counted('198.51.100.2')).toBe('allowed');
  });
});
