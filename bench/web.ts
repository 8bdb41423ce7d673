// Web benchmark: the JavaScript a browser downloads for /@tag and /register (raw, gzip, brotli;
// /@tag must stay under 120 KB compressed and carry no wallet code), and the server's time to
// first byte for /@tag against the trivial route of the same build, under `npm start` and
// under a bare `next start` (as Vercel runs it) on the same database, in one run.
//   npm run bench -- web
import { Agent, request } from 'node:http';
import { startBareNext, VERCEL_EDGE_HEADERS } from '@/devstack/app';
import { seedBenchProfile } from './seed';
import { pageJavaScript } from './page-javascript';

/** Compressed JavaScript budget of the public profile page (brotli, what a CDN serves). */
const PROFILE_JS_BUDGET_BYTES = 120 * 1024;
/** Time to first byte: requests per URL after a warm-up, and /@tag's bound against the trivial route. */
const TTFB = {
  requests: 200,
  warmUp: 20,
  /** /@tag's time to first byte may be at most this many times the trivial route's, in each shape. */
  profileTarget: 1.5,
} as const;

export interface Ttfb {
  path: string;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
}

/** What a browser asks for: the page compressed, as the server would send it to a visitor. */
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br';

/**
 * Time to first byte of each path (or absolute URL): sequential requests, one kept-alive connection per path,
 * the paths taken in turn (a, b, a, b, …) so that the machine's drift falls on all of them
 * alike; the clock stops when the response headers arrive (the first byte), body drained.
 * node:http rather than fetch: fetch sets up its decoder for a compressed answer before it
 * resolves, which is the client's time, not the server's.
 */
export async function timesToFirstByte(
  appUrl: string,
  paths: string[],
  requests: number = TTFB.requests,
): Promise<Ttfb[]> {
  const agents = paths.map(() => new Agent({ keepAlive: true, maxSockets: 1 }));
  const once = (i: number) =>
    new Promise<number>((resolve, reject) => {
      const start = performance.now();
      const headers = { 'accept-encoding': BROWSER_ACCEPT_ENCODING, ...VERCEL_EDGE_HEADERS };
      const req = request(new URL(paths[i]!, appUrl), { agent: agents[i], headers }, (res) => {
        const ms = performance.now() - start;
        if (res.statusCode !== 200) reject(new Error(`GET ${paths[i]}: ${res.statusCode}`));
        res
          .on('end', () => resolve(ms))
          .on('error', reject)
          .resume();
      });
      req.on('error', reject).end();
    });
  const samples = paths.map((): number[] => []);
  try {
    for (let round = 0; round < TTFB.warmUp + requests; round++) {
      for (let i = 0; i < paths.length; i++) {
        const ms = await once(i);
        if (round >= TTFB.warmUp) samples[i]!.push(ms);
      }
    }
  } finally {
    for (const agent of agents) agent.destroy();
  }
  return paths.map((path, i) => {
    const sorted = samples[i]!.sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
    return { path, p50Ms: at(0.5), p99Ms: at(0.99), meanMs: sorted.reduce((sum, x) => sum + x, 0) / sorted.length };
  });
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export async function benchWeb({
  appUrl,
  databaseUrl,
  rpcUrl,
  tag,
}: {
  appUrl: string;
  databaseUrl?: string;
  rpcUrl?: string;
  tag?: string;
}) {
  const profileTag = tag ?? (databaseUrl ? await seedBenchProfile(databaseUrl) : undefined);
  if (!profileTag) throw new Error('benchWeb needs a tag that exists, or a databaseUrl to seed one');
  const profilePath = `/@${profileTag}`;

  const profile = await pageJavaScript(appUrl, profilePath);
  const register = await pageJavaScript(appUrl, '/register');
  // The same build under a bare `next start` on the same database and cluster, beside `npm start`.
  const bare =
    databaseUrl && rpcUrl ? await startBareNext({ DATABASE_URL: databaseUrl, SOLANA_RPC_URL: rpcUrl }) : undefined;
  const shapes = [{ name: 'npm start', url: appUrl }, ...(bare ? [{ name: 'next start', url: bare.url }] : [])];
  let ttfb: Ttfb[];
  try {
    ttfb = await timesToFirstByte(
      appUrl,
      shapes.flatMap((shape) => [`${shape.url}/api/health`, `${shape.url}${profilePath}`]),
    );
  } finally {
    await bare?.stop();
  }

  console.log('\n## Web pages (production build)');
  console.log(
    '\nJavaScript a browser downloads (module scripts; gzip -6 for a client without brotli, brotli q11 as a CDN sends):\n',
  );
  console.log('| page | scripts | raw | gzip | brotli | wallet code |');
  console.log('|---|---:|---:|---:|---:|---|');
  for (const page of [profile, register]) {
    const wallet = page.walletCode.length
      ? `yes (${[...new Set(page.walletCode.map((w) => w.marker))].join(', ')})`
      : 'none';
    console.log(
      `| ${page.path === profilePath ? '/@tag' : page.path} | ${page.scripts} | ${kb(page.rawBytes)} | ${kb(page.gzipBytes)} | ${kb(page.brotliBytes)} | ${wallet} |`,
    );
  }
  const underBudget = profile.brotliBytes <= PROFILE_JS_BUDGET_BYTES;
  console.log(
    `\n/@tag JavaScript: ${kb(profile.brotliBytes)} brotli, ${kb(profile.gzipBytes)} gzip — target < ${kb(PROFILE_JS_BUDGET_BYTES)} compressed: ` +
      `${underBudget ? 'met (brotli)' : 'MISSED'}${profile.gzipBytes > PROFILE_JS_BUDGET_BYTES ? '; gzip alone is over' : ''}`,
  );
  console.log(
    `/@tag has no wallet-adapter code: ${profile.walletCode.length === 0 ? 'yes' : `NO — ${JSON.stringify(profile.walletCode)}`}`,
  );
  // Its wallet code loads when the visitor opens the wallet dialog (e2e/light-pages.spec.ts proves it does).
  console.log(
    `/register loads no wallet-adapter code with the page: ${register.walletCode.length === 0 ? 'yes' : `NO — ${JSON.stringify(register.walletCode)}`}`,
  );

  console.log(
    `\nTime to first byte, ${TTFB.requests} sequential requests each, the ${ttfb.length} URLs taken in turn, after ${TTFB.warmUp} warm-up:\n`,
  );
  console.log('| server | route | p50 | p99 | mean |');
  console.log('|---|---|---:|---:|---:|');
  const ratios = shapes.map((shape, i) => {
    const [health, page] = [ttfb[2 * i]!, ttfb[2 * i + 1]!];
    for (const t of [health, page]) {
      console.log(
        `| ${shape.name} | GET ${t === page ? '/@tag' : '/api/health'} | ${t.p50Ms.toFixed(2)} ms | ${t.p99Ms.toFixed(2)} ms | ${t.meanMs.toFixed(2)} ms |`,
      );
    }
    return { shape: shape.name, ratio: page.p50Ms / health.p50Ms };
  });
  console.log('');
  for (const { shape, ratio } of ratios) {
    console.log(
      `${shape}: /@tag p50 is ${ratio.toFixed(2)}× the trivial route's (target ≤ ${TTFB.profileTarget}×: ${ratio <= TTFB.profileTarget ? 'met' : 'NOT MET'})`,
    );
  }
  return { profile, register, ttfb, ratios, underBudget, profileWalletFree: profile.walletCode.length === 0 };
}
