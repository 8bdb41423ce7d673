// The cost of observing one request, measured in isolation: the wrapper every /v1 and /api
// route goes through (lib/observability/observe-request.ts: a request id, the request
// context, the metrics, one log line), called many times in a tight loop, against the same
// answer unobserved, in CPU time. Each part is also timed alone, so a regression names its
// cause. It runs in a child process whose stdout (the log) is a pipe this process drains, as
// a log collector would; the child reports on stderr.
//   npm run bench -- observability-hook
import { spawn } from 'node:child_process';
import { AsyncLocalStorage } from 'node:async_hooks';
import { fileURLToPath } from 'node:url';

const ITERATIONS = 50_000;
const ROUNDS = 5;
/** Calls between two turns of the event loop, so that log writes complete as they would under load. */
const BATCH = 32;
/**
 * Awaits in the busy answer: a request to Next.js creates about 240 promises (counted with an
 * async hook on the trivial route), and each promise created inside the request context costs
 * its propagation.
 */
const BUSY_AWAITS = 120;
/** AsyncLocalStorages Next.js runs every route handler inside (work, work unit, action, …). */
const FRAMEWORK_STORAGES = 4;

type Row = [name: string, micros: number];

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * CPU µs per call of `fn` (user + system time of the whole process, so a log write finished
 * on another thread counts), the median of ROUNDS runs of ITERATIONS calls after a warm-up run.
 */
async function microsPerCall(fn: (i: number) => unknown, iterations = ITERATIONS): Promise<number> {
  const run = async () => {
    const started = process.cpuUsage();
    for (let i = 0; i < iterations; i++) {
      const r = fn(i);
      if (r instanceof Promise) await r;
      if (i % BATCH === BATCH - 1) await yieldToLoop();
    }
    await yieldToLoop();
    const used = process.cpuUsage(started);
    return (used.user + used.system) / iterations;
  };
  await run();
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++) times.push(await run());
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/** In the child: measures, and reports the rows on stderr. */
async function measureInChild(): Promise<void> {
  // Next.js's own server environment is not loaded (only its public API is imported): in a
  // server, its wrappers of Date and node:crypto's random functions add a little to the
  // request id and the clock, on both sides alike
  const nodeCrypto = (await import('node:crypto')).default;
  const { observeRequest } = await import('@/lib/observability/observe-request');
  const { requestLog } = await import('@/lib/observability/logger');
  const { recordRequest } = await import('@/lib/observability/metrics');
  const { withRequestId } = await import('@/lib/observability/request-context');
  const { pathnameOf, routeLabel } = await import('@/lib/observability/route-label');
  const { scrub } = await import('@/lib/observability/scrub');

  const requests = [
    new Request('http://127.0.0.1:3000/api/health'),
    new Request('http://127.0.0.1:3000/v1/identity/alice'),
    new Request('http://127.0.0.1:3000/v1/auth/challenge', { method: 'POST' }),
  ];
  const routes = ['/api/health', '/v1/identity/{tag}', '/v1/auth/challenge'];
  const respond = () => new Response('{"ok":true}', { status: 200, headers: { 'content-type': 'application/json' } });
  const answer = async () => respond();
  const busyAnswer = async () => {
    for (let i = 0; i < BUSY_AWAITS; i++) await null;
    return respond();
  };
  // the framework's storages around every call, as in a route handler
  const framework = Array.from({ length: FRAMEWORK_STORAGES }, () => new AsyncLocalStorage<object>());
  const inFramework = <T>(fn: () => T): T =>
    framework.reduce<() => T>((inner, storage) => () => storage.run({}, inner), fn)();

  const bare = await microsPerCall(() => inFramework(answer));
  const observed = await microsPerCall((i) =>
    inFramework(() => observeRequest(requests[i % 3]!, routes[i % 3], answer)),
  );
  const looked = await microsPerCall(() => inFramework(() => observeRequest(requests[1]!, undefined, answer)));
  const busyBare = await microsPerCall(() => inFramework(busyAnswer));
  const busyObserved = await microsPerCall((i) =>
    inFramework(() => observeRequest(requests[i % 3]!, routes[i % 3], busyAnswer)),
  );
  const line = {
    requestId: nodeCrypto.randomUUID(),
    method: 'GET',
    route: '/api/health',
    path: '/api/health',
    status: 200,
    durationMs: 0.4,
  };
  const rows: Row[] = [
    ['an answer, unobserved', bare],
    ['the answer observed (declared route)', observed],
    ['the answer observed (route looked up from the path)', looked],
    ['**observing, per request**', observed - bare],
    [`an answer awaiting ${BUSY_AWAITS} times, unobserved`, busyBare],
    ['that answer observed', busyObserved],
    [
      `**observing, per request of ${BUSY_AWAITS} awaits** (the framework's stores follow each)`,
      busyObserved - busyBare,
    ],
    [
      '  a new request id (crypto.randomUUID(), as Next.js wraps it)',
      await microsPerCall(() => nodeCrypto.randomUUID()),
    ],
    ['  performance.now(), twice', await microsPerCall(() => performance.now() - performance.now())],
    ['  req.url → path → route', await microsPerCall((i) => routeLabel(pathnameOf(requests[i % 3]!.url)))],
    ['  scrub(path)', await microsPerCall(() => scrub('/v1/identity/alice'))],
    [
      "  the request id's AsyncLocalStorage entered",
      (await microsPerCall(() => inFramework(() => withRequestId('x', answer)))) - bare,
    ],
    [
      '  recordRequest (counter and histogram)',
      await microsPerCall((i) => recordRequest(routes[i % 3]!, 'GET', 200, 0.001)),
    ],
    ['  the request line, written', await microsPerCall(() => requestLog.info(line, 'request'))],
    [
      '  X-Request-Id set on the answer',
      (await microsPerCall(() => respond().headers.set('x-request-id', line.requestId))) -
        (await microsPerCall(respond)),
    ],
  ];
  process.stderr.write(`${JSON.stringify(rows)}\n`);
}

export async function benchObservabilityHook(): Promise<{ observingMicros: number }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=react-server', fileURLToPath(import.meta.url), 'child'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
  let logBytes = 0;
  child.stdout.on('data', (chunk: Buffer) => (logBytes += chunk.length));
  let report = '';
  child.stderr.on('data', (chunk: Buffer) => (report += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const last = report.trim().split('\n').at(-1) ?? '';
  if (code !== 0 || !last.startsWith('[')) throw new Error(`the measuring process failed (${code}):\n${report}`);
  const rows = JSON.parse(last) as Row[];
  console.log(
    `\n## Observing one request, in isolation — CPU time per call (the whole process's, log writes included) of ${ITERATIONS.toLocaleString('en')} calls, ` +
      `a turn of the event loop every ${BATCH}, median of ${ROUNDS} runs, inside ${FRAMEWORK_STORAGES} AsyncLocalStorages as in Next.js; ` +
      `${(logBytes / 1e6).toFixed(0)} MB of log drained from a pipe`,
  );
  console.log('| what | µs per request |');
  console.log('|---|---:|');
  for (const [name, micros] of rows) console.log(`| ${name} | ${micros.toFixed(2)} |`);
  return { observingMicros: rows[3]![1] };
}

if (process.argv[2] === 'child' && process.argv[1] === fileURLToPath(import.meta.url)) {
  measureInChild().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
