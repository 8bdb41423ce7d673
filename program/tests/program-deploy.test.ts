// `npm run program:deploy` and `npm run program:verify` end to end against a localnet: cost
// and the mainnet guard, a deploy stopped half way and resumed from its buffer while the node
// drops writes, verify (match, and mismatch after one changed byte), upgrade, final, and a
// multisig-held authority.
import { address } from '@solana/kit';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerTagInstruction } from '@/devstack/lifecycle-instructions';
import { startLocalnet, type Localnet } from '@/localnet';
import { COMMITTED_SO } from '@/program/build';
import { runCli } from '@/program/deploy/cli';
import { Cluster } from '@/program/deploy/cluster';
import {
  generateSigner,
  readKeypairFile,
  signerFromSecretKey,
  writeKeypairFile,
  type Signer,
} from '@/program/deploy/keys';
import { programDataAddress, signedTransaction, upgradeInstruction } from '@/program/deploy/loader-v3';
import { parseBuffer, parseProgramData } from '@/program/deploy/program-data';
import { startRpcProxy } from '@/tests/support/rpc-proxy';
import { logsOf, sendToCluster } from './cluster-calls';
import { buildChangedProgram } from './sbpf-changed-build';

const MAINNET_GENESIS = '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d';
const UPGRADE_LOG = 'tag registry: upgraded through program:deploy';
const TSX = path.join(process.cwd(), 'node_modules', '.bin', 'tsx');
const CLI = path.join(process.cwd(), 'program', 'deploy', 'cli.ts');

const work = mkdtempSync(path.join(tmpdir(), 'program-deploy-'));
const committed = new Uint8Array(readFileSync(COMMITTED_SO));
/** The changed build (logs UPGRADE_LOG first) both upgrade tests deploy: compiled once, in beforeAll. */
const upgradeSoPath = path.join(work, 'upgraded.so');
let localnet: Localnet;
let cluster: Cluster;
let payerPath: string;
let payer: Signer;

/**
 * A JSON-RPC proxy in front of the localnet: it can claim to be mainnet, drop sends, and
 * answer some signature-status calls with 429 (a rate-limited node).
 */
async function startProxy(options: { mainnet?: boolean; dropEverySend?: number; throttleEveryStatus?: number }) {
  let sends = 0;
  let dropped = 0;
  let statuses = 0;
  let throttled = 0;
  const proxy = await startRpcProxy(localnet.url, (request) => {
    // Batches (the deploy sends none) are forwarded as they come.
    const call = Array.isArray(request) ? undefined : request;
    if (options.mainnet && call?.method === 'getGenesisHash')
      return { json: { jsonrpc: '2.0', id: call.id, result: MAINNET_GENESIS } };
    if (call?.method === 'sendTransaction' && options.dropEverySend && ++sends % options.dropEverySend === 0) {
      dropped++;
      return { status: 503, text: 'overloaded' };
    }
    if (
      call?.method === 'getSignatureStatuses' &&
      options.throttleEveryStatus &&
      ++statuses % options.throttleEveryStatus === 0
    ) {
      throttled++;
      return { status: 429, text: 'too many requests' };
    }
    return undefined;
  });
  return { url: proxy.url, dropped: () => dropped, throttled: () => throttled, close: proxy.close };
}

async function cli(...argv: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const code = await runCli(argv, { log: (l) => lines.push(l), error: (l) => lines.push(l) }, {});
  return { code, out: lines.join('\n') };
}

function deployArgs(url: string, programKeypair: string, ...more: string[]): string[] {
  return [
    'deploy',
    '--url',
    url,
    '--keypair',
    payerPath,
    '--program-keypair',
    programKeypair,
    '--state-dir',
    path.join(work, 'state'),
    ...more,
  ];
}

async function registerLogs(programId: string, tag: string): Promise<string[]> {
  const owner = generateSigner();
  await cluster.airdrop(owner.address, 1_000_000_000);
  const instruction = registerTagInstruction({
    programAddress: address(programId),
    tag,
    owner: owner.address,
    wallet: owner.address,
    feePayer: owner.address,
  });
  return logsOf(localnet.url, await sendToCluster(cluster, owner, [instruction]));
}

const shaLines = (out: string) => [...out.matchAll(/sha256 ([0-9a-f]{64})/g)].map((m) => m[1]);

beforeAll(async () => {
  localnet = await startLocalnet({ port: 0, dataDir: null, programs: [] });
  cluster = new Cluster(localnet.url);
  payer = generateSigner();
  payerPath = path.join(work, 'payer.json');
  writeKeypairFile(payerPath, payer);
  await cluster.airdrop(payer.address, 500_000_000_000);
  writeFileSync(upgradeSoPath, buildChangedProgram(path.join(work, 'changed-build'), UPGRADE_LOG));
});

afterAll(async () => {
  await localnet?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('program:deploy and program:verify against a localnet', () => {
  it('prints the cost first and spends nothing on mainnet without --yes; with --yes it deploys', async () => {
    const mainnet = await startProxy({ mainnet: true });
    try {
      const programPath = path.join(work, 'mainnet-program.json');
      const before = await cluster.balance(payer.address);
      const refused = await cli(...deployArgs(mainnet.url, programPath));
      expect(refused.code).toBe(1);
      expect(refused.out).toContain('(mainnet-beta, genesis 5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d)');
      expect(refused.out).toMatch(/cost: about 0\.\d+ SOL: program data rent 0\.\d+ SOL \(max length \d+ bytes\)/);
      expect(refused.out).toContain('this is mainnet: nothing was spent');
      expect(await cluster.balance(payer.address)).toBe(before);
      expect(await cluster.account(readKeypairFile(programPath).address)).toBeNull();

      const confirmed = await cli(...deployArgs(mainnet.url, programPath, '--yes'));
      expect(confirmed.code, confirmed.out).toBe(0);
      expect(await cluster.account(readKeypairFile(programPath).address)).not.toBeNull();
    } finally {
      await mainnet.close();
    }
  });

  describe('one program through its life', () => {
    const programPath = path.join(work, 'program.json');
    let programId: string;

    it('resumes a deploy stopped half way through the writes, retrying the writes the node drops and waiting out rate-limited status calls', async () => {
      // First run: a real process, stopped by the testing hook after 6 writes.
      const first = await promisify(execFile)(
        TSX,
        [CLI, ...deployArgs(localnet.url, programPath, '--concurrency', '3')],
        {
          env: { ...process.env, PROGRAM_DEPLOY_FAIL_AFTER_WRITES: '6' },
        },
      ).then(
        () => ({ code: 0, stderr: '' }),
        (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
      );
      expect(first.code).toBe(1);
      expect(first.stderr).toMatch(/stopped after \d+ of \d+ writes/);
      programId = readKeypairFile(programPath).address;
      const [stateFile] = readdirSync(path.join(work, 'state'));
      const bufferAddress = bufferOfStateFile(path.join(work, 'state', stateFile));
      const half = parseBuffer((await cluster.account(bufferAddress))!.data).bytes;
      expect(Buffer.from(half).equals(Buffer.from(committed))).toBe(false);
      expect(Buffer.from(half.subarray(0, 800)).equals(Buffer.from(committed.subarray(0, 800)))).toBe(true);
      expect(await cluster.account(programId)).toBeNull();

      // Second run: resumes from the buffer, through a node that drops every third send and
      // answers every second status call with 429 (the landed deploy must not be resent).
      const flaky = await startProxy({ dropEverySend: 3, throttleEveryStatus: 2 });
      try {
        const second = await cli(...deployArgs(flaky.url, programPath));
        expect(second.code, second.out).toBe(0);
        expect(second.out).toContain(`resuming from buffer ${bufferAddress}`);
        expect(second.out).toMatch(/writes: \d+\/\d+ already in the buffer/);
        expect(second.out).toMatch(/retrying/);
        expect(flaky.dropped()).toBeGreaterThan(0);
        expect(flaky.throttled()).toBeGreaterThan(0);
        expect(second.out).not.toContain('already in use');
        const [deployedSha, localSha] = shaLines(second.out).slice(-2);
        expect(deployedSha).toBe(localSha);
        expect(existsSync(path.join(work, 'state', stateFile))).toBe(false);
        expect(await cluster.account(bufferAddress)).toBeNull(); // the deploy consumed it
      } finally {
        await flaky.close();
      }
      expect((await registerLogs(programId, 'deployed')).join('\n')).toContain(`Program ${programId} success`);
    });

    it('program:verify reports a match, and a mismatch after one byte of the local file changes', async () => {
      const rebuilt = await cli('verify', '--url', localnet.url, '--program-id', programId);
      expect(rebuilt.code, rebuilt.out).toBe(0);
      expect(rebuilt.out).toContain('rebuilt from program/src');
      expect(rebuilt.out).toContain('MATCH: the deployed program is this build');

      const changed = new Uint8Array(committed);
      changed[1000] ^= 0x01;
      const changedPath = path.join(work, 'changed.so');
      writeFileSync(changedPath, changed);
      const mismatch = await cli('verify', '--url', localnet.url, '--program-id', programId, '--so', changedPath);
      expect(mismatch.code).toBe(1);
      expect(mismatch.out).toContain('MISMATCH: the bytes differ from offset 1000');
      const [deployedSha, localSha] = shaLines(mismatch.out);
      expect(deployedSha).not.toBe(localSha);
    });

    it('--upgrade puts a changed build live (its new log line answers); after --final an upgrade is refused', async () => {
      expect(await registerLogs(programId, 'before')).not.toContain(`Program log: ${UPGRADE_LOG}`);

      const upgraded = await cli(...deployArgs(localnet.url, programPath, '--upgrade', '--so', upgradeSoPath));
      expect(upgraded.code, upgraded.out).toBe(0);
      expect(upgraded.out).toMatch(/upgraded: \w+/);
      expect(await registerLogs(programId, 'after')).toContain(`Program log: ${UPGRADE_LOG}`);

      const final = await cli(...deployArgs(localnet.url, programPath, '--upgrade', '--so', upgradeSoPath, '--final'));
      expect(final.code, final.out).toBe(0);
      expect(final.out).toContain('the program already holds this build: nothing to write');
      expect(final.out).toContain('upgrade authority is now none: the program is final');
      expect(parseProgramData((await cluster.account(programDataAddress(programId)))!.data).authority).toBeNull();

      const refused = await cli(...deployArgs(localnet.url, programPath, '--upgrade'));
      expect(refused.code).toBe(1);
      expect(refused.out).toContain('is final: its upgrade authority is none, so it can never be upgraded');
      expect(await registerLogs(programId, 'still')).toContain(`Program log: ${UPGRADE_LOG}`);
    });
  });

  it('hands the upgrade authority to another key (a multisig); an --upgrade then prepares a buffer that key puts live', async () => {
    const programPath = path.join(work, 'multisig-program.json');
    const vault = generateSigner();
    await cluster.airdrop(vault.address, 1_000_000_000);
    const deployed = await cli(...deployArgs(localnet.url, programPath, '--upgrade-authority', vault.address));
    expect(deployed.code, deployed.out).toBe(0);
    const programId = readKeypairFile(programPath).address;
    expect(parseProgramData((await cluster.account(programDataAddress(programId)))!.data).authority).toBe(
      vault.address,
    );

    const prepared = await cli(...deployArgs(localnet.url, programPath, '--upgrade', '--so', upgradeSoPath));
    expect(prepared.code, prepared.out).toBe(0);
    const buffer = /buffer (\w+) waits for the upgrade authority/.exec(prepared.out)![1];
    expect(parseBuffer((await cluster.account(buffer))!.data).authority).toBe(vault.address);

    // What the multisig would sign.
    const recent = await cluster.latestBlockhash();
    const tx = signedTransaction(
      [
        upgradeInstruction({
          programId: programId as never,
          buffer: buffer as never,
          authority: vault.address,
          spill: vault.address,
        }),
      ],
      vault.address,
      recent,
      [vault],
    );
    await cluster.sendAndConfirm(tx, recent.lastValidBlockHeight);
    expect(await registerLogs(programId, 'multisig')).toContain(`Program log: ${UPGRADE_LOG}`);
    const verified = await cli('verify', '--url', localnet.url, '--program-id', programId, '--so', upgradeSoPath);
    expect(verified.code, verified.out).toBe(0);
  });
});

/** The buffer address a deploy state file remembers. */
function bufferOfStateFile(stateFile: string): string {
  const { buffer } = JSON.parse(readFileSync(stateFile, 'utf8')) as { buffer: number[] };
  const key = signerFromSecretKey(Uint8Array.from(buffer));
  return key.address;
}
