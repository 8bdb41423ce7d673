import { describe, expect, it } from 'vitest';
import { isPublicAddress } from '@/lib/core/public-address';
import { fetchAvatarImage } from '@/lib/web/server/avatar-image';
import { avatarPath } from '@/lib/web/server/avatar-path';

/*
 * The app fetches avatars itself, so that pages contact no third party: a fetch of a
 * user-chosen URL, refused wherever it could reach inside the network.
 */

describe('isPublicAddress', () => {
  const PUBLIC = [
    '8.8.8.8',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8', // IPv4-mapped: judged by the IPv4 address it carries
    '64:ff9b::8.8.8.8', // well-known NAT64: likewise
  ];
  const NOT_PUBLIC = [
    '127.0.0.1',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    'not an address',
    // the IPv6 forms that reach an IPv4 address, a local network or nothing
    '::',
    '::127.0.0.1', // IPv4-compatible
    '::7f00:1',
    '::8.8.8.8', // IPv4-compatible is deprecated: nothing public lives there
    '::ffff:0:127.0.0.1', // SIIT IPv4-translated
    '64:ff9b:1::7f00:1', // local-use NAT64
    '64:ff9b:1::808:808',
    '64:ff9b::127.0.0.1', // well-known NAT64: judged by the IPv4 address it carries
    '64:ff9b::7f00:1',
    '64:ff9b::a00:1',
    '2002:7f00:1::1', // 6to4
    '2002:808:808::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
    '2001:2::1', // benchmarking
    '2001:10::1', // ORCHID
    '2001:db8::1', // documentation
    '3fff::1',
    '5f00::1', // SRv6
    '100::1', // discard
    'fec0::1', // site-local
    'ff02::1', // multicast
    'fe80::1%eth0',
  ];

  it.each(PUBLIC)('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each(NOT_PUBLIC)('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});

describe('fetchAvatarImage refuses before connecting', () => {
  it.each([
    ['http, not https', 'http://example.com/a.png'],
    ['a port other than 443', 'https://example.com:8443/a.png'],
    ['credentials in the URL', 'https://user:pw@example.com/a.png'],
    ['a loopback address', 'https://127.0.0.1/a.png'],
    ['a metadata address', 'https://169.254.169.254/latest/meta-data'],
    ['a private IPv6 address', 'https://[fd00::1]/a.png'],
    ['not a URL', 'avatar.png'],
  ])('%s', async (_name, url) => {
    expect(await fetchAvatarImage(url)).toBeNull();
  });

  it('a name that resolves to a loopback address: refused by the lookup, on the address it would connect to', async () => {
    expect(await fetchAvatarImage('https://localhost/a.png')).toBeNull();
  });
});

describe('avatarPath', () => {
  it('points at the app, and changes when the avatar URL does', () => {
    const a = avatarPath('alice', 'https://cdn.example/a.png');
    expect(a).toMatch(/^\/api\/avatar\/alice\?v=\w+$/);
    expect(avatarPath('alice', 'https://cdn.example/b.png')).not.toBe(a);
  });
});
