import bs58 from 'bs58';
import { eq } from 'drizzle-orm';
import {
  createPublicClient,
  decodeFunctionResult,
  encodeFunctionData,
  parseAbi,
  toHex,
  zeroAddress,
  type Hex,
  type PublicClient,
} from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { namehash, packetToBytes } from 'viem/ens';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertIdentity, randomTag } from '@/devstack/identities';
import { LOCAL_ENS_GATEWAY_SIGNER_KEY } from '@/lib/core/config';
import { identities } from '@/lib/db/schema';
import { heldInProcessBehindRpcProxy } from '../support/in-process';
import { compileContract, localEvm, type Compiled, type LocalEvm } from './local-evm';

/*
 * The ENS gateway end to end (DESIGN.md "Reach beyond Solana clients"): viem, as an ENS-aware
 * wallet runs it, reads the parent name's offchain resolver (ENS's reference logic, compiled here)
 * on an EVM in this process; the resolver reverts with OffchainLookup, viem fetches the app's
 * gateway itself and hands the signed answer back to the resolver, which checks the signature.
 */

const PARENT = 'tags.example.eth';
/** Every JSON-RPC method the app asked its cluster for: the gateway must ask none. */
const rpcCalls: string[] = [];
const app = heldInProcessBehindRpcProxy(
  (request) => {
    for (const call of [request ?? []].flat()) rpcCalls.push(call.method ?? '?');
    return undefined; // forwarded to the localnet
  },
  { ENS_PARENT_NAME: PARENT },
);

const RESOLVER_CALLS = parseAbi([
  'function addr(bytes32 node) view returns (address)',
  'function addr(bytes32 node, uint256 coinType) view returns (bytes)',
  'function text(bytes32 node, string key) view returns (string)',
  'function multicall(bytes[] data) returns (bytes[] results)',
]);
const EXTENDED_RESOLVER = parseAbi(['function resolve(bytes name, bytes data) view returns (bytes)']);

let evm: LocalEvm;
let client: PublicClient;
let resolverContract: Compiled;
/** The resolver of the parent, trusting the gateway's signer, GET form. */
let resolver: Hex;

beforeAll(async () => {
  evm = await localEvm();
  client = createPublicClient({ transport: evm.transport });
  resolverContract = compileContract('TagOffchainResolver.sol', 'TagOffchainResolver');
  const { gateway, signer } = (await (await app().fetch('/v1/ens')).json()) as { gateway: string; signer: Hex };
  // the app's gateway, on the in-process listener's origin
  resolver = await evm.deploy(resolverContract, [gateway.replace(app().config.appUrl.origin, app().url), [signer]]);
});

/** A resolver call for `name`, made through the resolver at `at` as viem makes it (OffchainLookup followed). */
async function resolveThrough(at: Hex, name: string, call: Hex): Promise<Hex> {
  return client.readContract({
    address: at,
    abi: EXTENDED_RESOLVER,
    functionName: 'resolve',
    args: [toHex(packetToBytes(name)), call],
  });
}

async function solanaAddress(name: string, at: Hex = resolver): Promise<Hex> {
  const args = [namehash(name), 501n] as const;
  const data = await resolveThrough(at, name, encodeFunctionData({ abi: RESOLVER_CALLS, functionName: 'addr', args }));
  return decodeFunctionResult({ abi: RESOLVER_CALLS, functionName: 'addr', args, data }) as Hex;
}

async function text(name: string, key: string): Promise<string> {
  const args = [namehash(name), key] as const;
  const data = await resolveThrough(
    resolver,
    name,
    encodeFunctionData({ abi: RESOLVER_CALLS, functionName: 'text', args }),
  );
  return decodeFunctionResult({ abi: RESOLVER_CALLS, functionName: 'text', args, data });
}

describe('the ENS gateway, through a resolver contract on a local EVM', () => {
  it("resolves a tag's payout wallet (coin type 501) and its text records", async () => {
    const row = await insertIdentity(app().db, {
      displayName: 'Alice',
      bio: 'Building on Solana.',
      avatar: 'https://example.com/alice.png',
    });
    const name = `${row.tag}.${PARENT}`;
    expect(await solanaAddress(name)).toBe(toHex(bs58.decode(row.wallet)));
    expect(await text(name, 'name')).toBe('Alice');
    expect(await text(name, 'description')).toBe('Building on Solana.');
    expect(await text(name, 'avatar')).toBe('https://example.com/alice.png');
    expect(await text(name, 'url')).toBe(`${app().config.appUrl.origin}/@${row.tag}`);
    expect(await text(name, 'com.twitter')).toBe('');
  });

  it('answers addr(node) and every coin type but Solana empty', async () => {
    const row = await insertIdentity(app().db);
    const name = `${row.tag}.${PARENT}`;
    const eth = [namehash(name)] as const;
    const ethData = await resolveThrough(
      resolver,
      name,
      encodeFunctionData({ abi: RESOLVER_CALLS, functionName: 'addr', args: eth }),
    );
    expect(decodeFunctionResult({ abi: RESOLVER_CALLS, functionName: 'addr', args: eth, data: ethData })).toBe(
      zeroAddress,
    );
    for (const coinType of [60n, 0n, 2147483658n]) {
      const args = [namehash(name), coinType] as const;
      const data = await resolveThrough(
        resolver,
        name,
        encodeFunctionData({ abi: RESOLVER_CALLS, functionName: 'addr', args }),
      );
      expect(decodeFunctionResult({ abi: RESOLVER_CALLS, functionName: 'addr', args, data }), String(coinType)).toBe(
        '0x',
      );
    }
  });

  it('gives an unknown, a blocked and a released tag a signed empty answer, never an error', async () => {
    const blocked = await insertIdentity(app().db, { status: 'blocked', displayName: 'Hidden' });
    const released = await insertIdentity(app().db, { displayName: 'Gone' });
    await app().db.delete(identities).where(eq(identities.tag, released.tag)); // the indexer's release
    for (const tag of [randomTag(), blocked.tag, released.tag]) {
      const name = `${tag}.${PARENT}`;
      expect(await solanaAddress(name), tag).toBe('0x');
      expect(await text(name, 'name'), tag).toBe('');
    }
    // a name that is no tag of ours: the parent itself, a deeper name
    expect(await solanaAddress(PARENT)).toBe('0x');
    expect(await solanaAddress(`x.${blocked.tag}.${PARENT}`)).toBe('0x');
  });

  it("a change reaches the gateway's answers as it reaches /v1/resolve", async () => {
    const row = await insertIdentity(app().db, { displayName: 'Before' });
    const name = `${row.tag}.${PARENT}`;
    expect(await text(name, 'name')).toBe('Before');
    await app().db.update(identities).set({ displayName: 'After' }).where(eq(identities.tag, row.tag));
    const resolved = (await (await app().fetch(`/v1/resolve/${row.tag}`)).json()) as { displayName: string };
    expect([resolved.displayName, await text(name, 'name')]).toEqual(['After', 'After']);
  });

  it('answers a multicall of records in one lookup, each as its own call would', async () => {
    const row = await insertIdentity(app().db, { displayName: 'Many' });
    const name = `${row.tag}.${PARENT}`;
    const addr = encodeFunctionData({ abi: RESOLVER_CALLS, functionName: 'addr', args: [namehash(name), 501n] });
    const label = encodeFunctionData({ abi: RESOLVER_CALLS, functionName: 'text', args: [namehash(name), 'name'] });
    const data = await resolveThrough(
      resolver,
      name,
      encodeFunctionData({ abi: RESOLVER_CALLS, functionName: 'multicall', args: [[addr, label]] }),
    );
    const [addrResult, labelResult] = decodeFunctionResult({ abi: RESOLVER_CALLS, functionName: 'multicall', data });
    expect(addrResult).toBe(await resolveThrough(resolver, name, addr));
    expect(labelResult).toBe(await resolveThrough(resolver, name, label));
  });

  it('sends no RPC call: every answer comes from the mirror', async () => {
    const row = await insertIdentity(app().db, { displayName: 'Mirrored' });
    const before = rpcCalls.length;
    expect(await solanaAddress(`${row.tag}.${PARENT}`)).toBe(toHex(bs58.decode(row.wallet)));
    expect(await text(`${row.tag}.${PARENT}`, 'name')).toBe('Mirrored');
    expect(await solanaAddress(`${randomTag()}.${PARENT}`)).toBe('0x');
    expect(rpcCalls.slice(before)).toEqual([]);
  });

  it('the POST form (a gateway URL without {data}) gives the same answer', async () => {
    const { signer } = (await (await app().fetch('/v1/ens')).json()) as { signer: Hex };
    const posting = await evm.deploy(resolverContract, [`${app().url}/v1/ens`, [signer]]);
    const row = await insertIdentity(app().db);
    expect(await solanaAddress(`${row.tag}.${PARENT}`, posting)).toBe(toHex(bs58.decode(row.wallet)));
  });

  it('a resolver that trusts another signer rejects the answer', async () => {
    const other = privateKeyToAddress(`0x${'42'.repeat(32)}`);
    const distrustful = await evm.deploy(resolverContract, [`${app().url}/v1/ens/{sender}/{data}.json`, [other]]);
    const row = await insertIdentity(app().db);
    await expect(solanaAddress(`${row.tag}.${PARENT}`, distrustful)).rejects.toThrow(/untrusted signer/);
  });

  it('an answer is valid for 300 seconds: a resolver whose clock is past that rejects it', async () => {
    const row = await insertIdentity(app().db);
    const name = `${row.tag}.${PARENT}`;
    try {
      evm.setTime(BigInt(Math.floor(Date.now() / 1000) + 290));
      expect(await solanaAddress(name)).toBe(toHex(bs58.decode(row.wallet)));
      evm.setTime(BigInt(Math.floor(Date.now() / 1000) + 302));
      await expect(solanaAddress(name)).rejects.toThrow(/answer expired/);
    } finally {
      evm.setTime(undefined);
    }
  });
});

describe("viem's ENS actions, as a wallet calls them", () => {
  it('getEnsAddress (coin type 501) and getEnsText find a tag through a universal resolver', async () => {
    const universal = await evm.deploy(compileContract('TestUniversalResolver.sol', 'TestUniversalResolver'), [
      resolver,
    ]);
    const row = await insertIdentity(app().db, { displayName: 'Wallet User' });
    const name = `${row.tag}.${PARENT}`;
    const at = { universalResolverAddress: universal };
    expect(await client.getEnsAddress({ name, coinType: 501n, ...at })).toBe(toHex(bs58.decode(row.wallet)));
    expect(await client.getEnsText({ name, key: 'name', ...at })).toBe('Wallet User');
    expect(await client.getEnsText({ name, key: 'url', ...at })).toBe(`${app().config.appUrl.origin}/@${row.tag}`);
    // Ethereum's coin type: nothing, as for a name with no tag
    expect(await client.getEnsAddress({ name, ...at })).toBeNull();
    expect(await client.getEnsAddress({ name: `${randomTag()}.${PARENT}`, coinType: 501n, ...at })).toBeNull();
  });
});

describe('GET /v1/ens and malformed lookups', () => {
  it('publishes the gateway URL template, the signer and the parent name, with an ETag', async () => {
    const res = await app().fetch('/v1/ens');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      gateway: `${app().config.appUrl.origin}/v1/ens/{sender}/{data}.json`,
      signer: privateKeyToAddress(LOCAL_ENS_GATEWAY_SIGNER_KEY),
      parent: PARENT,
    });
    const again = await app().fetch('/v1/ens', { headers: { 'If-None-Match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('the GET answer is cacheable like a resolve answer, the POST answer is not; both CORS-open, with the slot read', async () => {
    const row = await insertIdentity(app().db);
    const name = `${row.tag}.${PARENT}`;
    const call = encodeFunctionData({ abi: RESOLVER_CALLS, functionName: 'addr', args: [namehash(name), 501n] });
    const data = encodeFunctionData({
      abi: EXTENDED_RESOLVER,
      functionName: 'resolve',
      args: [toHex(packetToBytes(name)), call],
    });
    const sender = `0x${'ab'.repeat(20)}`;
    const viaGet = await app().fetch(`/v1/ens/${sender}/${data}.json`);
    const viaPost = await app().fetch('/v1/ens', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sender, data }),
    });
    for (const res of [viaGet, viaPost]) {
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('x-indexed-slot')).toMatch(/^\d+$/);
    }
    expect(viaGet.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=30, stale-while-revalidate=60');
    expect(viaPost.headers.get('cache-control')).toBe('no-store');
  });

  it('GET /v1/ens answers 406 to a client that accepts no JSON', async () => {
    const res = await app().fetch('/v1/ens', { headers: { accept: 'text/html' } });
    expect([res.status, ((await res.json()) as { error: { code: string } }).error.code]).toEqual([
      406,
      'not_acceptable',
    ]);
  });

  it('the POST form takes exactly {sender, data}', async () => {
    const res = await app().fetch('/v1/ens', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sender: `0x${'ab'.repeat(20)}`, data: '0x', extra: 1 }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
  });

  const SENDER = `0x${'ab'.repeat(20)}`;
  it.each([
    [
      'a sender that is no address',
      `/v1/ens/0x1234/0x.json`,
      '`sender`: must be the resolver address: 0x and 40 hex digits',
    ],
    ['data that is not hex', `/v1/ens/${SENDER}/0xzz.json`, '`data`: must be 0x-prefixed hex bytes'],
    [
      'data that is not resolve(bytes,bytes)',
      `/v1/ens/${SENDER}/0x12345678.json`,
      '`data` must be the callData of resolve(bytes name, bytes data).',
    ],
  ])('%s: 400 in the envelope', async (_name, path, message) => {
    const res = await app().fetch(path);
    expect([res.status, await res.json()]).toEqual([400, { error: { code: 'invalid_request', message } }]);
  });

  it('a resolver call no profile defines: 400 naming the calls it answers', async () => {
    const data = encodeFunctionData({
      abi: EXTENDED_RESOLVER,
      functionName: 'resolve',
      args: [toHex(packetToBytes(`alice.${PARENT}`)), '0xdeadbeef'],
    });
    const res = await app().fetch(`/v1/ens/${SENDER}/${data}.json`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /^The resolver call must be addr/,
    );
  });
});
