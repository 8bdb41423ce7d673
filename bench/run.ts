// `npm run bench`: every benchmark, printed (not timed tests). Sections that measure the
// app start the shared stack (devstack/: a real PostgreSQL, a localnet and the production
// build, so run `npm run build` first) and measure each route side by side with the
// trivial route of the same build.
//   npm run bench               all sections
//   npm run bench -- auth web   only these
//   npm run bench -- scale      a million identities (opt-in: minutes; not run without names)
//   npm run bench -- memory     one instance after 100,000 distinct /@tag views (opt-in too)
//   npm run bench -- batchers   each group-commit call site, this build against a variant (opt-in)
import { cpus, setPriority } from 'node:os';
import { startStack, type Stack } from '@/devstack/stack';
import { BENCH_APP_ENV } from './app-env';
import { benchAuth } from './auth';
import { benchBatchers } from './batchers';
import { benchIdentity } from './identity';
import { benchIndexer } from './indexer';
import { benchIntegrators } from './integrators';
import { benchLocalnet } from './localnet';
import { benchObservability } from './observability';
import { benchObservabilityHook } from './observability-hook';
import { benchAvailabilityAtScale, benchPayers } from './payers';
import { benchMemory } from './memory';
import { benchProgram } from './program-cu';
import { benchProgramCuSample } from './program-cu-sample';
import { benchProgramLifecycle } from './program-lifecycle-cu';
import { benchScale } from './scale';
import { benchWeb } from './web';
import { benchWebhooks } from './webhooks';
import { benchWebhookIsolation } from './webhook-isolation';

const LOAD_GENERATOR_NICENESS = 10;

type Section = (
  | { stack: true; run: (stack: Stack) => Promise<unknown> }
  /** Starts what it measures itself (LiteSVM in-process, a localnet process, PostgreSQL). */
  | { stack: false; run: () => unknown }
) & { /** Run only when named. */ optIn?: boolean };

const SECTIONS: Record<string, Section> = {
  auth: { stack: true, run: (s) => benchAuth(s) },
  identity: { stack: true, run: (s) => benchIdentity(s) },
  web: { stack: true, run: (s) => benchWeb(s) },
  integrators: { stack: true, run: (s) => benchIntegrators(s) },
  payers: { stack: true, run: (s) => benchPayers(s) },
  /** The second half of `payers` alone: availability with look-alikes over one million tags. */
  'payers-scale': { stack: true, run: (s) => benchAvailabilityAtScale(s), optIn: true },
  indexer: { stack: true, run: (s) => benchIndexer(s) },
  webhooks: { stack: true, run: (s) => benchWebhooks(s) },
  /** A victim's webhook delay alone and beside 70 slow subscriptions. */
  'webhook-isolation': { stack: true, run: (s) => benchWebhookIsolation(s) },
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
  const stack = names.some((name) => SECTIONS[name]!.stack)
    ? await startStack(BENCH_APP_ENV)
    : null;
  // The load generator (autocannon, in this process) yields to the server and PostgreSQL
  // when they want the same cores: on a real deployment it would be another machine.
  setPriority(LOAD_GENERATOR_NICENESS);
  console.log(`# Benchmarks — ${new Date().toISOString()}, ${cpus().length} cores, Node ${process.version}`);
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

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
