// `npm run bench`: every benchmark, printed (not timed tests) and appended to a results file
// of the day, bench/results/YYYY-MM-DD.md (docs/benchmarks.md says what each section measures
// and how to read it). Sections that measure the app start the shared stack (devstack/: a real
// PostgreSQL, a localnet and the production build, so run `npm run build` first) and measure
// each route side by side with the trivial route of the same build.
//   npm run bench               all sections
//   npm run bench -- auth web   only these
//   npm run bench -- ens        the ENS gateway against /v1/resolve
//   npm run bench -- lighthouse Lighthouse scores and first-load JavaScript of each page
//   npm run bench -- starvation rpc   health under heavy readers; RPC calls per request
//   npm run bench -- scale      a million identities (opt-in: minutes; not run without names)
//   npm run bench -- memory     one instance after 100,000 distinct /@tag views (opt-in too)
//   npm run bench -- batchers   each group-commit call site, this build against a variant (opt-in)
import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { cpus, loadavg, setPriority } from 'node:os';
import { startStack, type Stack } from '@/devstack/stack';
import { BENCH_APP_ENV } from './app-env';
import { benchAuth } from './auth';
import { benchBatchers } from './batchers';
import { benchEns } from './ens';
import { benchIdentity } from './identity';
import { benchIndexer } from './indexer';
import { benchIntegrators } from './integrators';
import { benchLighthouse } from './lighthouse';
import { benchLocalnet } from './localnet';
import { benchObservability } from './observability';
import { benchObservabilityHook } from './observability-hook';
import { benchAvailabilityAtScale, benchPayers } from './payers';
import { benchMemory } from './memory';
import { benchProgram } from './program-cu';
import { benchProgramCuSample } from './program-cu-sample';
import { benchProgramLifecycle } from './program-lifecycle-cu';
import { benchRpcBudget } from './rpc-budget';
import { benchScale } from './scale';
import { benchStarvation } from './starvation';
import { benchWeb } from './web';
import { benchWebhooks } from './webhooks';
import { benchWebhookIsolation } from './webhook-isolation';
import { benchPayments } from './payments';

const LOAD_GENERATOR_NICENESS = 10;
const RESULTS_DIR = 'bench/results';
/** Set in the child that runs the sections; the parent copies that child's output to the results file. */
const SECTIONS_CHILD = 'BENCH_SECTIONS_CHILD';

type Section = (
  | { stack: true; run: (stack: Stack) => Promise<unknown> }
  /** Starts what it measures itself (LiteSVM in-process, a localnet process, PostgreSQL). */
  | { stack: false; run: () => unknown }
) & { /** Run only when named. */ optIn?: boolean };

const SECTIONS: Record<string, Section> = {
  auth: { stack: true, run: (s) => benchAuth(s) },
  identity: { stack: true, run: (s) => benchIdentity(s) },
  web: { stack: true, run: (s) => benchWeb(s) },
  /** Lighthouse scores and first-load JavaScript of /, a live /@tag, /register, /settings. */
  lighthouse: { stack: true, run: (s) => benchLighthouse(s) },
  integrators: { stack: true, run: (s) => benchIntegrators(s) },
  payers: { stack: true, run: (s) => benchPayers(s) },
  /** The second half of `payers` alone: availability with look-alikes over one million tags. */
  'payers-scale': { stack: true, run: (s) => benchAvailabilityAtScale(s), optIn: true },
  indexer: { stack: true, run: (s) => benchIndexer(s) },
  webhooks: { stack: true, run: (s) => benchWebhooks(s) },
  /** /api/health idle, under 64 feed readers and under a share-image crawl. */
  starvation: { stack: true, run: (s) => benchStarvation(s) },
  /** RPC calls per request: reverse 404, ready, status, the Action's GET. */
  rpc: { stack: true, run: (s) => benchRpcBudget(s) },
  /** A victim's webhook delay alone and beside 70 slow subscriptions. */
  'webhook-isolation': { stack: true, run: (s) => benchWebhookIsolation(s) },
  payments: { stack: true, run: (s) => benchPayments(s) },
  /** The ENS gateway's throughput against /v1/resolve on the same tags, and both routes' p95. */
  ens: { stack: true, run: (s) => benchEns(s) },
  observability: { stack: true, run: (s) => benchObservability(s) },
  /** The same, each instance a bare `next start` as Vercel runs it (VERCEL=1: each log line written as it comes). */
  'observability-vercel': { stack: true, run: (s) => benchObservability(s, 'vercel'), optIn: true },
  /** What observing costs a request, in isolation (CPU µs). */
  'observability-hook': { stack: false, run: () => benchObservabilityHook() },
  program: { stack: false, run: () => benchProgram() },
  lifecycle: { stack: false, run: () => benchProgramLifecycle() },
  cu: { stack: false, run: () => benchProgramCuSample() },
  localnet: { stack: false, run: () => benchLocalnet() },
  scale: { stack: false, run: () => benchScale(), optIn: true },
  memory: { stack: false, run: () => benchMemory(), optIn: true },
  /** Two instances, A this build and B a variant (BENCH_B_DIST, BENCH_B_ENV): each batcher's gain. */
  batchers: { stack: true, run: (s) => benchBatchers(s), optIn: true },
};

async function main(): Promise<void> {
  const wanted = process.argv.slice(2).filter((a) => a in SECTIONS);
  const names = wanted.length ? wanted : Object.keys(SECTIONS).filter((name) => !SECTIONS[name]!.optIn);
  const stack = names.some((name) => SECTIONS[name]!.stack) ? await startStack(BENCH_APP_ENV) : null;
  // The load generator (autocannon, in this process) yields to the server and PostgreSQL
  // when they want the same cores: on a real deployment it would be another machine.
  setPriority(LOAD_GENERATOR_NICENESS);
  // The machine's load beside every run: figures from a busy machine are not a quiet one's.
  const load = loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  console.log(
    `\n# Benchmarks — ${new Date().toISOString()}, commit ${commitOf()}, ${cpus().length} cores, load average ${load}, Node ${process.version}`,
  );
  console.log(`sections: ${names.join(' ')}`);
  try {
    for (const name of names) {
      const section = SECTIONS[name]!;
      if (section.stack) await section.run(stack!);
      else await section.run();
    }
  } finally {
    await stack?.stop();
  }
}

function commitOf(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim();
    return dirty ? `${head} (with uncommitted changes)` : head;
  } catch {
    return 'unknown';
  }
}

/**
 * Runs the sections in a child process and copies its standard output to the terminal and to
 * bench/results/<today, UTC>.md, appended, so every figure a section prints lands in a dated
 * file without the sections knowing about it. Errors stay on the terminal; a failed run says so
 * in the file.
 */
function recordRun(): Promise<number> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const path = `${RESULTS_DIR}/${new Date().toISOString().slice(0, 10)}.md`;
  const file = createWriteStream(path, { flags: 'a' });
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    env: { ...process.env, [SECTIONS_CHILD]: '1' },
    stdio: ['inherit', 'pipe', 'inherit'],
  });
  const toMarkdown = markdownLines((text) => file.write(text));
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    process.stdout.write(chunk);
    toMarkdown.write(chunk);
  });
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      toMarkdown.end();
      const failed = code !== 0;
      if (failed)
        file.write(`\n**This run failed** (${signal ?? `exit code ${code}`}): the figures above are incomplete.\n`);
      file.end(() => {
        console.error(`figures appended to ${path}`);
        resolve(failed ? 1 : 0);
      });
    });
  });
}

/**
 * Copies printed lines to a markdown file: headings, tables and blank lines as they are, and
 * each run of other lines (the sections' aligned columns) inside a ```text fence, so the file
 * reads as the terminal did.
 */
function markdownLines(write: (text: string) => void): { write(chunk: string): void; end(): void } {
  let pending = '';
  let fenced = false;
  const line = (text: string) => {
    const plain = text !== '' && !/^(#|\||\*\*|sections:)/.test(text);
    if (plain !== fenced) write(fenced ? '```\n' : '```text\n');
    fenced = plain;
    write(`${text}\n`);
  };
  return {
    write(chunk) {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop()!;
      for (const text of lines) line(text);
    },
    end() {
      if (pending) line(pending);
      if (fenced) write('```\n');
    },
  };
}

if (process.env[SECTIONS_CHILD] === '1') {
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
} else {
  recordRun().then((code) => process.exit(code));
}
