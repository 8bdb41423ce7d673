import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRpc, startTestNet, type TestNet } from './helpers';

describe('localnet: malformed JSON-RPC gets JSON-RPC errors and the server keeps serving', () => {
  let net: TestNet;
  beforeAll(async () => {
    net = await startTestNet();
  });
  afterAll(async () => {
    await net.close();
  });

  const cases: { name: string; body: string; status?: number; expected: unknown }[] = [
    {
      name: 'not JSON',
      body: '{"jsonrpc":"2.0",',
      expected: { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null },
    },
    {
      name: 'wrong jsonrpc version',
      body: JSON.stringify({ jsonrpc: '1.0', id: 7, method: 'getSlot' }),
      expected: { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request' }, id: 7 },
    },
    {
      name: 'a request that is not an object',
      body: '42',
      expected: { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request' }, id: null },
    },
    {
      name: 'an unknown method',
      body: JSON.stringify({ jsonrpc: '2.0', id: 'a', method: 'getEverything' }),
      expected: { jsonrpc: '2.0', error: { code: -32601, message: 'Method not found' }, id: 'a' },
    },
    {
      name: 'a method of Object.prototype',
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'constructor' }),
      expected: { jsonrpc: '2.0', error: { code: -32601, message: 'Method not found' }, id: 1 },
    },
    {
      name: 'params that are not an array',
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'getBalance', params: { pubkey: 'x' } }),
      expected: {
        jsonrpc: '2.0',
        error: { code: -32602, message: 'Invalid params: expected an array of parameters' },
        id: 2,
      },
    },
    {
      name: 'a pubkey that is not one',
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'getBalance', params: ['not-a-key'] }),
      expected: { jsonrpc: '2.0', error: { code: -32602, message: 'Invalid param: Invalid' }, id: 3 },
    },
    {
      name: 'a transaction that is not one',
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 4,
        method: 'sendTransaction',
        params: ['AAAA', { encoding: 'base64' }],
      }),
      expected: {
        jsonrpc: '2.0',
        error: {
          code: -32602,
          message: expect.stringMatching(/^failed to deserialize solana_transaction::versioned::VersionedTransaction/),
        },
        id: 4,
      },
    },
    {
      name: 'a limit over 1000',
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 5,
        method: 'getSignaturesForAddress',
        params: ['11111111111111111111111111111111', { limit: 1001 }],
      }),
      expected: { jsonrpc: '2.0', error: { code: -32602, message: 'Invalid params: Invalid limit; max 1000' }, id: 5 },
    },
    {
      name: 'an empty batch',
      body: '[]',
      expected: { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request' }, id: null },
    },
    {
      name: 'a batch with garbage in it',
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'getHealth' },
        'garbage',
        { jsonrpc: '2.0', id: 2, method: 'nope' },
        null,
      ]),
      expected: [
        { jsonrpc: '2.0', result: 'ok', id: 1 },
        { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request' }, id: null },
        { jsonrpc: '2.0', error: { code: -32601, message: 'Method not found' }, id: 2 },
        { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request' }, id: null },
      ],
    },
    {
      name: 'a 5 MB body',
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getHealth', params: ['x'.repeat(5 * 1024 * 1024)] }),
      status: 413,
      expected: {
        jsonrpc: '2.0',
        error: { code: -32600, message: 'Invalid request: body larger than 1048576 bytes' },
        id: null,
      },
    },
  ];

  it.each(cases)('answers $name', async ({ body, status, expected }) => {
    const res = await rawRpc(net.localnet.url, body);
    expect(res.status).toBe(status ?? 200);
    expect(res.body).toEqual(expected);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    // Still serving, through the strict client.
    expect(await net.rpc.getSlot({ commitment: 'confirmed' }).send()).toBeGreaterThanOrEqual(0n);
  });

  it('answers CORS preflights and refuses GET', async () => {
    const preflight = await fetch(net.localnet.url, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:3000',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,solana-client',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type,solana-client');
    const get = await fetch(net.localnet.url);
    expect(get.status).toBe(405);
  });

  it('answers batches and the context wrapper like a node', async () => {
    const res = await rawRpc(
      net.localnet.url,
      JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'getBalance', params: ['11111111111111111111111111111111'] },
        { jsonrpc: '2.0', id: 2, method: 'getLatestBlockhash', params: [{ commitment: 'confirmed' }] },
      ]),
    );
    const [balance, latest] = res.body as {
      result: { context: { slot: number; apiVersion: string }; value: unknown };
    }[];
    expect(balance!.result).toEqual({
      context: { slot: expect.any(Number), apiVersion: expect.any(String) },
      value: 1,
    });
    expect(latest!.result.value).toEqual({
      blockhash: expect.any(String),
      lastValidBlockHeight: latest!.result.context.slot + 150,
    });
  });
});
