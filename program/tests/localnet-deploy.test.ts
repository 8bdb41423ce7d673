// The localnet serves the registry the way a cluster does: deployed through loader-v3 with
// every feature on (a v0 deploy is refused there), its state kept across a restart, and a
// rebuilt .so put live on the next start through a real upgrade.
import { address } from '@solana/kit';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { instructionOf } from '@/devstack/lifecycle-instructions';
import { LOCALNET_PROGRAM_ID } from '@/packages/tag-registry/src';
import { startLocalnet, type Localnet } from '@/localnet';
import { COMMITTED_SO, LOCALNET_PROGRAM_KEYPAIR } from '@/program/build';
import { runCli } from '@/program/deploy/cli';
import { Cluster, TransactionFailed } from '@/program/deploy/cluster';
import { generateSigner, type Signer } from '@/program/deploy/keys';
import {
  BUFFER_HEADER_SIZE,
  createBufferInstructions,
  deployInstructions,
  LOADER_V3_PROGRAM_ADDRESS,
  PROGRAM_ACCOUNT_SIZE,
  writeChunkSize,
  writeInstruction,
} from '@/program/deploy/loader-v3';
import { findTagRecordAddress } from '@/program/pda';
import { logsOf, sendToCluster } from './cluster-calls';
import { buildChangedProgram } from './sbpf-changed-build';

const V0_SO_PATH = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'tag_registry_v0.so');
const UPGRADE_LOG = 'tag registry: rebuilt while the localnet was down';
const work = mkdtempSync(path.join(tmpdir(), 'localnet-deploy-'));
const running: Localnet[] = [];
afterAll(async () => {
  for (const net of running) await net.close();
  rmSync(work, { recursive: true, force: true });
});

async function start(options: Parameters<typeof startLocalnet>[0]): Promise<Localnet> {
  const net = await startLocalnet({ port: 0, ...options });
  running.push(net);
  return net;
}

async function funded(cluster: Cluster): Promise<Signer> {
  const signer = generateSigner();
  await cluster.airdrop(signer.address, 10_000_000_000);
  return signer;
}

async function register(url: string, tag: string): Promise<string[]> {
  const cluster = new Cluster(url);
  const owner = generateSigner();
  await cluster.airdrop(owner.address, 1_000_000_000);
  const programId = address(LOCALNET_PROGRAM_ID);
  const { instruction } = instructionOf({ kind: 'register', tag, owner, wallet: owner }, programId);
  return logsOf(url, await sendToCluster(cluster, owner, [instruction]));
}

describe('the localnet deploys the registry through loader-v3 with every feature on', () => {
  it('serves it as an upgradeable program holding the committed build', async () => {
    const net = await start({ dataDir: null });
    const program = await new Cluster(net.url).account(LOCALNET_PROGRAM_ID);
    expect(program).toMatchObject({ owner: LOADER_V3_PROGRAM_ADDRESS, executable: true });
    const lines: string[] = [];
    const code = await runCli(
      ['verify', '--url', net.url, '--program-id', LOCALNET_PROGRAM_ID, '--so', COMMITTED_SO],
      { log: (l) => lines.push(l), error: (l) => lines.push(l) },
      {},
    );
    expect(code, lines.join('\n')).toBe(0);
    expect(lines).toContain('MATCH: the deployed program is this build');
    expect((await register(net.url, 'alice')).join('\n')).toContain(`Program ${LOCALNET_PROGRAM_ID} success`);
  });

  it('refuses to deploy the v0 build (SIMD-0500 is on there too)', async () => {
    const net = await start({ dataDir: null, programs: [] });
    const cluster = new Cluster(net.url);
    const payer = await funded(cluster);
    const so = new Uint8Array(readFileSync(V0_SO_PATH));
    const buffer = generateSigner();
    const program = generateSigner();
    const lamports = await cluster.minimumBalance(BUFFER_HEADER_SIZE + so.length);
    await sendToCluster(
      cluster,
      payer,
      createBufferInstructions({
        payer: payer.address,
        buffer: buffer.address,
        authority: payer.address,
        programLength: so.length,
        lamports,
      }),
      [buffer],
    );
    const chunk = writeChunkSize({ payer, authority: payer });
    for (let offset = 0; offset < so.length; offset += chunk) {
      await sendToCluster(cluster, payer, [
        writeInstruction({
          buffer: buffer.address,
          authority: payer.address,
          offset,
          bytes: so.subarray(offset, offset + chunk),
        }),
      ]);
    }
    const deploy = deployInstructions({
      payer: payer.address,
      programId: program.address,
      buffer: buffer.address,
      authority: payer.address,
      maxDataLength: so.length,
      programAccountLamports: await cluster.minimumBalance(PROGRAM_ACCOUNT_SIZE),
    });
    const refused = await sendToCluster(cluster, payer, deploy, [program]).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TransactionFailed);
    expect((refused as TransactionFailed).logs).toContain(
      'Detected sbpf_version required by the executable which are not enabled',
    );
  });

  it('keeps its state across a restart, and puts a rebuilt .so live through an upgrade on the next start', async () => {
    const dataDir = path.join(work, 'data');
    const soPath = path.join(work, 'tag_registry.so');
    writeFileSync(soPath, readFileSync(COMMITTED_SO));
    const programs = [{ programId: LOCALNET_PROGRAM_ID, soPath, keypairPath: LOCALNET_PROGRAM_KEYPAIR }];

    const first = await start({ dataDir, programs });
    expect(await register(first.url, 'persisted')).not.toContain(`Program log: ${UPGRADE_LOG}`);
    await first.close();

    writeFileSync(soPath, buildChangedProgram(path.join(work, 'build'), UPGRADE_LOG));
    const second = await start({ dataDir, programs });
    const cluster = new Cluster(second.url);
    expect(await cluster.account(findTagRecordAddress('persisted', address(LOCALNET_PROGRAM_ID))[0])).not.toBeNull();
    expect(await register(second.url, 'rebuilt')).toContain(`Program log: ${UPGRADE_LOG}`);
    const lines: string[] = [];
    expect(
      await runCli(
        ['verify', '--url', second.url, '--program-id', LOCALNET_PROGRAM_ID, '--so', soPath],
        { log: (l) => lines.push(l), error: (l) => lines.push(l) },
        {},
      ),
    ).toBe(0);
  });
});
