/**
 * `npm run program:deploy -- …` and `npm run program:verify -- …` (docs/operating.md,
 * "Deploying the program"). Exit code 0 on success, 1 when the deploy or the comparison fails, 2 on bad
 * arguments.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { isAddress } from '@solana/kit';
import { COMMITTED_SO } from '../build';
import { Cluster } from './cluster';
import { deployProgram } from './deploy';
import { generateSigner, readKeypairFile, writeKeypairFile, type Signer } from './keys';
import { localBuild, verifyProgram } from './verify';

export const DEPLOY_USAGE = `usage: npm run program:deploy -- --url <rpc> --keypair <payer.json>
         [--program-keypair <id.json>] [--program-id <address>] [--upgrade]
         [--upgrade-authority <keypair.json | address>] [--final] [--yes]
         [--so <file>] [--max-len <bytes>] [--concurrency <n>] [--priority-fee <micro-lamports per CU>]
         [--state-dir <dir>]
  --program-keypair  the program's keypair; a first deploy creates the file when it does not exist
  --upgrade          replace the code of the program at --program-id (or the keypair's address)
  --upgrade-authority  a keypair file: it signs as the upgrade authority (default: the payer);
                     an address: the authority is handed to it after the deploy (a multisig);
                     on --upgrade, an address that is the program's authority gets the buffer
  --final            set the upgrade authority to none afterwards: the program can never change
  --yes              required to spend on mainnet
  --so               the build to deploy (default: program/tag_registry.so)
  --max-len          program data capacity of a first deploy (default: twice the build)
  --state-dir        where an unfinished deploy's buffer is remembered (default: .data/program-deploy)`;

export const VERIFY_USAGE = `usage: npm run program:verify -- --url <rpc> --program-id <address> [--so <file>]
  rebuilds the program from program/src (or takes --so) and compares it with the deployed bytes`;

class UsageError extends Error {}

function positiveInt(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) throw new UsageError(`${name} must be a positive integer, got ${value}`);
  return n;
}

async function deployCommand(
  args: string[],
  log: (line: string) => void,
  env: Record<string, string | undefined>,
): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      url: { type: 'string' },
      keypair: { type: 'string' },
      'program-keypair': { type: 'string' },
      'program-id': { type: 'string' },
      upgrade: { type: 'boolean', default: false },
      'upgrade-authority': { type: 'string' },
      final: { type: 'boolean', default: false },
      yes: { type: 'boolean', default: false },
      so: { type: 'string' },
      'max-len': { type: 'string' },
      concurrency: { type: 'string' },
      'priority-fee': { type: 'string' },
      'state-dir': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) return (log(DEPLOY_USAGE), 0);
  if (!values.url || !values.keypair) throw new UsageError('--url and --keypair are required');
  const payer = readKeypairFile(values.keypair);
  let program: Signer | undefined;
  const programKeypair = values['program-keypair'];
  if (programKeypair) {
    if (existsSync(programKeypair)) program = readKeypairFile(programKeypair);
    else if (values.upgrade) throw new UsageError(`${programKeypair} does not exist`);
    else {
      program = generateSigner();
      writeKeypairFile(programKeypair, program);
      log(
        `new program keypair in ${programKeypair}: its address ${program.address} is the program id (keep the file private)`,
      );
    }
  }
  const programId = values['program-id'];
  if (programId && !isAddress(programId)) throw new UsageError(`--program-id ${programId} is not an address`);
  if (program && programId && program.address !== programId)
    throw new UsageError(`--program-keypair is ${program.address}, not --program-id ${programId}`);
  const authorityArg = values['upgrade-authority'];
  const authority = authorityArg && !isAddress(authorityArg) ? readKeypairFile(authorityArg) : undefined;
  const newAuthority = authorityArg && isAddress(authorityArg) ? authorityArg : undefined;
  const priorityFee =
    values['priority-fee'] === undefined ? undefined : BigInt(positiveInt(values['priority-fee'], '--priority-fee')!);
  const failAfter = env.PROGRAM_DEPLOY_FAIL_AFTER_WRITES;

  const result = await deployProgram({
    cluster: new Cluster(values.url),
    so: new Uint8Array(readFileSync(values.so ?? COMMITTED_SO)),
    payer,
    program,
    programId,
    upgrade: values.upgrade,
    authority,
    newAuthority,
    final: values.final,
    yes: values.yes,
    maxDataLength: positiveInt(values['max-len'], '--max-len'),
    concurrency: positiveInt(values.concurrency, '--concurrency') ?? 8,
    stateDir: values['state-dir'] ?? path.join('.data', 'program-deploy'),
    priority: priorityFee ? { microLamportsPerCu: priorityFee, computeUnits: 20_000 } : undefined,
    failAfterWrites: positiveInt(failAfter, 'PROGRAM_DEPLOY_FAIL_AFTER_WRITES'),
    log,
  });
  if (result.pendingBuffer) log(`buffer ${result.pendingBuffer} waits for the upgrade authority`);
  return 0;
}

async function verifyCommand(args: string[], log: (line: string) => void): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      url: { type: 'string' },
      'program-id': { type: 'string' },
      so: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) return (log(VERIFY_USAGE), 0);
  if (!values.url || !values['program-id']) throw new UsageError('--url and --program-id are required');
  if (!isAddress(values['program-id'])) throw new UsageError(`--program-id ${values['program-id']} is not an address`);
  const result = await verifyProgram({
    cluster: new Cluster(values.url),
    programId: values['program-id'],
    local: localBuild(values.so, log),
    log,
  });
  return result.match ? 0 : 1;
}

/** Runs one command; returns the exit code. Errors are printed through `error`, not thrown. */
export async function runCli(
  argv: string[],
  io: { log: (line: string) => void; error: (line: string) => void } = { log: console.log, error: console.error },
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  const [command, ...rest] = argv;
  const args = rest[0] === '--' ? rest.slice(1) : rest;
  try {
    if (command === 'deploy') return await deployCommand(args, io.log, env);
    if (command === 'verify') return await verifyCommand(args, io.log);
    throw new UsageError(`unknown command ${command ?? ''}: deploy or verify`);
  } catch (e) {
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.error(`${(e as Error).message}\n\n${command === 'verify' ? VERIFY_USAGE : DEPLOY_USAGE}`);
      return 2;
    }
    io.error(`error: ${(e as Error).message}`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = await runCli(process.argv.slice(2));
}
