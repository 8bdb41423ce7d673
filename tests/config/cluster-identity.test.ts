// The cluster is never assumed (issue 42 item 3): start-up reads SOLANA_RPC_URL's genesis hash
// and refuses a cluster that disagrees with SOLANA_CLUSTER, or a public one when SOLANA_CLUSTER is
// unset; the localnet's public key is refused on any other cluster. A remote cluster cannot run
// here: a small JSON-RPC stub answering getGenesisHash stands for one. One test starts `npm
// start`'s server itself, because what is under test is that the process stops, with the message.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ConfigError, parseConfig } from '@/lib/core/config';
import { getRpc } from '@/lib/chain/rpc';
import { clusterOfGenesisHash, PUBLIC_GENESIS_HASHES, verifyCluster } from '@/lib/chain/cluster-identity';

const DEVNET = 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG';
/** The localnet's key written in lib/core/config.ts (public: anyone can read it there). */
const LOCALNET_KEY = '46XrSTTxDEJMVVEMhZ9KZCTez9xEM9iXTEu5G5vnxQNaFV7pKVWLPtQgW2k1h4Wm4dZGkfCCk6UUkmGuEP1H3Mg6';
const OWN_KEY = JSON.stringify(Array.from({ length: 64 }, (_, i) => (i * 7) % 256));
/** A public cluster's keys of its own: the service identity and the ENS gateway's signer. */
const OWN_KEYS = { ACTION_IDENTITY_SECRET: OWN_KEY, ENS_GATEWAY_SIGNER_KEY: `0x${'42'.repeat(32)}` };

/** A JSON-RPC endpoint that answers getGenesisHash with `hash` (and nothing else). */
async function genesisStub(hash: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    const { id, method } = JSON.parse(body) as { id: unknown; method: string };
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify(
        method === 'getGenesisHash'
          ? { jsonrpc: '2.0', id, result: hash }
          : { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } },
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Runs a process to its exit: its exit code and everything it printed. */
async function exitOf(command: string, args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += String(chunk)));
  child.stderr.on('data', (chunk) => (output += String(chunk)));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, output };
}

const check = (env: Record<string, string>) => {
  const config = parseConfig(env);
  return verifyCluster(config, getRpc(config), env);
};

describe('the genesis hash at start', () => {
  let devnet: Awaited<ReturnType<typeof genesisStub>>;
  beforeAll(async () => {
    devnet = await genesisStub(DEVNET);
  });
  afterAll(() => devnet.close());

  it('knows the three public clusters by their genesis hashes; any other is a local one', () => {
    expect(PUBLIC_GENESIS_HASHES.devnet).toBe(DEVNET);
    expect(clusterOfGenesisHash(DEVNET)).toBe('devnet');
    expect(clusterOfGenesisHash('5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d')).toBe('mainnet-beta');
    expect(clusterOfGenesisHash('4uhcVJyU9pJkvQyS88uRDiswHXSCkY3zQawwpjk2NsNY')).toBe('testnet');
    expect(clusterOfGenesisHash('GH7ome3EiwEr7tu9JuTh2dpYWBJK3z69Xm1ZE3MEE6JC')).toBe('localnet');
  });

  it("devnet's hash with SOLANA_CLUSTER unset: refused, naming the fix", async () => {
    await expect(check({ SOLANA_RPC_URL: devnet.url })).rejects.toThrow(
      new ConfigError(
        `Invalid configuration:\n  SOLANA_CLUSTER: unset, but SOLANA_RPC_URL answers genesis hash ${DEVNET}: that is devnet, not a local cluster. Set SOLANA_CLUSTER=devnet (with an ACTION_IDENTITY_SECRET of your own), or point SOLANA_RPC_URL at a local cluster.`,
      ),
    );
  });

  it("devnet's hash under another public cluster's name, and under localnet: refused", async () => {
    await expect(check({ SOLANA_RPC_URL: devnet.url, SOLANA_CLUSTER: 'mainnet-beta', ...OWN_KEYS })).rejects.toThrow(
      /SOLANA_CLUSTER: is mainnet-beta, but SOLANA_RPC_URL answers genesis hash .*: that is devnet/,
    );
    await expect(check({ SOLANA_RPC_URL: devnet.url, SOLANA_CLUSTER: 'localnet' })).rejects.toThrow(
      /SOLANA_CLUSTER: is localnet, but .*that is devnet\. Set SOLANA_CLUSTER=devnet/,
    );
  });

  it('devnet with the public localnet key as ACTION_IDENTITY_SECRET: refused, in development as in production', () => {
    for (const NODE_ENV of ['development', 'production'])
      expect(() =>
        parseConfig({
          NODE_ENV,
          SOLANA_RPC_URL: devnet.url,
          SOLANA_CLUSTER: 'devnet',
          ACTION_IDENTITY_SECRET: LOCALNET_KEY,
        }),
      ).toThrow(/ACTION_IDENTITY_SECRET: is the localnet's public key/);
    expect(() => parseConfig({ NODE_ENV: 'development', SOLANA_CLUSTER: 'devnet' })).toThrow(
      /ACTION_IDENTITY_SECRET: required on devnet/,
    );
  });

  it('devnet named as devnet, with a key of its own: starts', async () => {
    await expect(check({ SOLANA_RPC_URL: devnet.url, SOLANA_CLUSTER: 'devnet', ...OWN_KEYS })).resolves.toBe('devnet');
  });

  it('the shared localnet, SOLANA_CLUSTER unset or localnet: starts as localnet; named devnet: refused', async () => {
    const rpc = inject('rpcUrl');
    await expect(check({ SOLANA_RPC_URL: rpc })).resolves.toBe('localnet');
    await expect(check({ SOLANA_RPC_URL: rpc, SOLANA_CLUSTER: 'localnet' })).resolves.toBe('localnet');
    await expect(check({ SOLANA_RPC_URL: rpc, SOLANA_CLUSTER: 'devnet', ...OWN_KEYS })).rejects.toThrow(
      /SOLANA_CLUSTER: is devnet, but SOLANA_RPC_URL answers genesis hash \w+: that is none of the public clusters \(a local one\)/,
    );
  });

  it('an RPC that does not answer: refused, without quoting the URL', async () => {
    const url = 'http://127.0.0.1:1/?api-key=secret-in-url';
    const failure = check({ SOLANA_RPC_URL: url }).catch((err: Error) => err.message);
    await expect(failure).resolves.toMatch(/SOLANA_RPC_URL: did not answer getGenesisHash/);
    await expect(failure).resolves.not.toMatch(/secret-in-url/);
  });

  it("npm start's server against devnet's hash with SOLANA_CLUSTER unset: exits 1 with the message, before it listens", async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, SOLANA_RPC_URL: devnet.url, PORT: '3987' };
    delete env.SOLANA_CLUSTER;
    const { code, output } = await exitOf('node_modules/.bin/tsx', ['scripts/serve.ts', 'start'], env);
    expect(code).toBe(1);
    expect(output).toContain('SOLANA_CLUSTER: unset, but SOLANA_RPC_URL answers genesis hash');
    expect(output).toContain('Set SOLANA_CLUSTER=devnet');
    expect(output).not.toContain('Ready on');
  }, 60_000);

  it("a bare next start (instrumentation.ts) against devnet's hash with SOLANA_CLUSTER unset: exits 1 with the message", async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, SOLANA_RPC_URL: devnet.url };
    delete env.SOLANA_CLUSTER;
    const { code, output } = await exitOf(
      process.execPath,
      ['node_modules/next/dist/bin/next', 'start', '-p', '3988'],
      env,
    );
    expect(code).toBe(1);
    expect(output).toContain('SOLANA_CLUSTER: unset, but SOLANA_RPC_URL answers genesis hash');
  }, 60_000);
});
