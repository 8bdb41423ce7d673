import { privateKeyToAddress } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { ConfigError, LOCAL_ENS_GATEWAY_SIGNER_KEY, parseConfig } from '@/lib/core/config';
import { dnsDecodeName, tagOfName } from '@/lib/features/gateways/ens-gateway';
import { nostrKeyHex, npubOf } from '@/lib/core/nostr-key';

/*
 * The ENS gateway's key (ENS_GATEWAY_SIGNER_KEY): the embedded one is public, so it signs only on
 * localnet; every other cluster must bring its own, and may not bring the public one. And the
 * pure rules the gateways read names with.
 */

const OWN_KEY = `0x${'42'.repeat(32)}`;
const PUBLIC_CLUSTER = {
  NODE_ENV: 'production',
  SOLANA_CLUSTER: 'devnet',
  ACTION_IDENTITY_SECRET: JSON.stringify(Array.from({ length: 64 }, (_, i) => i)),
};

describe('ENS_GATEWAY_SIGNER_KEY and ENS_PARENT_NAME', () => {
  it('localnet: the embedded key and the default parent', () => {
    const { ens } = parseConfig({});
    expect(ens).toEqual({ signerKey: LOCAL_ENS_GATEWAY_SIGNER_KEY, parentName: 'tags.localhost' });
    expect(privateKeyToAddress(ens.signerKey)).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });

  it.each(['devnet', 'testnet', 'mainnet-beta'])('%s: required, in development too', (cluster) => {
    const ownIdentity = { ACTION_IDENTITY_SECRET: PUBLIC_CLUSTER.ACTION_IDENTITY_SECRET };
    expect(() => parseConfig({ SOLANA_CLUSTER: cluster, ...ownIdentity })).toThrow(
      new ConfigError(`Invalid configuration:\n  ENS_GATEWAY_SIGNER_KEY: required on ${cluster}`),
    );
  });

  it('in production, names every missing key of a public cluster at once', () => {
    expect(() => parseConfig({ NODE_ENV: 'production', SOLANA_CLUSTER: 'devnet' })).toThrow(
      new ConfigError(
        "Invalid configuration:\n  ACTION_IDENTITY_SECRET: required in production on devnet (the embedded key is the localnet's, and public)\n  ENS_GATEWAY_SIGNER_KEY: required on devnet",
      ),
    );
  });

  it('a public cluster refuses the localnet key, in any spelling', () => {
    for (const spelling of [LOCAL_ENS_GATEWAY_SIGNER_KEY, LOCAL_ENS_GATEWAY_SIGNER_KEY.slice(2).toUpperCase()])
      expect(() => parseConfig({ ...PUBLIC_CLUSTER, ENS_GATEWAY_SIGNER_KEY: spelling })).toThrow(
        new ConfigError(
          'Invalid configuration:\n  ENS_GATEWAY_SIGNER_KEY: the localnet key is public and refused on devnet',
        ),
      );
  });

  it('takes a key of its own, with or without 0x, and a parent name in any case', () => {
    const { ens } = parseConfig({
      ...PUBLIC_CLUSTER,
      ENS_GATEWAY_SIGNER_KEY: OWN_KEY.slice(2),
      ENS_PARENT_NAME: ' Tags.Example.ETH ',
    });
    expect(ens).toEqual({ signerKey: OWN_KEY, parentName: 'tags.example.eth' });
  });

  it.each([
    [
      'too short',
      '0x1234',
      'ENS_GATEWAY_SIGNER_KEY: must be a secp256k1 private key: 32 bytes as 64 hex digits, with or without 0x',
    ],
    [
      'zero',
      `0x${'00'.repeat(32)}`,
      'ENS_GATEWAY_SIGNER_KEY: must be a secp256k1 private key: 32 bytes as 64 hex digits, with or without 0x',
    ],
    [
      'past the group order',
      `0x${'ff'.repeat(32)}`,
      'ENS_GATEWAY_SIGNER_KEY: must be a secp256k1 private key: 32 bytes as 64 hex digits, with or without 0x',
    ],
  ])('a key %s is refused, naming the variable', (_name, key, line) => {
    expect(() => parseConfig({ ENS_GATEWAY_SIGNER_KEY: key })).toThrow(
      new ConfigError(`Invalid configuration:\n  ${line}`),
    );
  });

  it.each(['eth', 'tags..eth', '-tags.eth', 'tags.eth.', 'tägs.eth'])('a parent name %s is refused', (parent) => {
    expect(() => parseConfig({ ENS_PARENT_NAME: parent })).toThrow(
      new ConfigError(
        'Invalid configuration:\n  ENS_PARENT_NAME: must be a DNS name of two or more labels (a-z, 0-9, -), e.g. tags.example.eth',
      ),
    );
  });
});

describe('names', () => {
  it('a DNS-encoded name decodes; a malformed one is a 400', () => {
    expect(dnsDecodeName(Uint8Array.from([5, ...Buffer.from('alice'), 3, ...Buffer.from('eth'), 0]))).toBe('alice.eth');
    expect(() => dnsDecodeName(Uint8Array.from([5, 97]))).toThrow('A label of the DNS-encoded name is cut short.');
    expect(() => dnsDecodeName(Uint8Array.from([1, 97]))).toThrow('The DNS-encoded name has no terminating zero.');
    expect(() => dnsDecodeName(Uint8Array.from([1, 97, 0, 0]))).toThrow(
      'The DNS-encoded name has bytes after its end.',
    );
  });

  it.each([
    ['alice.tags.eth', 'alice'],
    ['tags.eth', null],
    ['x.alice.tags.eth', null],
    ['alice.other.eth', null],
    ['Alice.tags.eth', null],
    ['a-b.tags.eth', null],
  ])('%s under tags.eth is the tag %s', (name, tag) => {
    expect(tagOfName(name, 'tags.eth')).toBe(tag);
  });

  it('a Nostr key: npub and hex both give hex; an npub round-trips', () => {
    const hex = '3bf0c63fcb93463407af97a5e5ee64fa883d107ef9e558472c4eb9aaaefa459d';
    expect(npubOf(hex)).toBe('npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6');
    expect(nostrKeyHex(npubOf(hex))).toBe(hex);
    expect(nostrKeyHex(npubOf(hex).toUpperCase())).toBe(hex);
    expect(nostrKeyHex(hex.toUpperCase())).toBe(hex);
    expect(nostrKeyHex('npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6W6')).toBeNull(); // mixed case
  });
});
