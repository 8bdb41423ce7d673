import autocannon from 'autocannon';

export interface LoadResult {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
}

export interface LoadSpec {
  name: string;
  url: string;
  method?: 'GET' | 'POST' | 'PATCH';
  headers?: Record<string, string>;
  body?: string;
  /** A fresh body per request (e.g. a newly signed challenge). */
  nextBody?: () => string;
  /** A fresh path per request (e.g. a different tag each time). */
  nextPath?: () => string;
  connections?: number;
  durationSeconds?: number;
  /** Stop after this many requests instead of after a duration. */
  amount?: number;
  /** A request unanswered this long counts as an error (autocannon's default: 10 s). */
  timeoutSeconds?: number;
  /** What counts as throughput: 2xx answers (default), or 3xx for a route measured by its 304. */
  success?: '2xx' | '3xx';
}

/** One load run with autocannon over loopback; throughput and latency percentiles (ms). */
export async function measure(spec: LoadSpec): Promise<LoadResult> {
  const { nextBody, nextPath } = spec;
  const result = await autocannon({
    url: spec.url,
    connections: spec.connections ?? 10,
    duration: spec.durationSeconds ?? 5,
    amount: spec.amount,
    ...(spec.timeoutSeconds !== undefined && { timeout: spec.timeoutSeconds }),
    method: spec.method ?? 'GET',
    headers: spec.headers,
    body: spec.body,
    requests:
      nextBody || nextPath
        ? [
            {
              setupRequest: (req) => ({
                ...req,
                ...(nextBody && { body: nextBody() }),
                ...(nextPath && { path: nextPath() }),
              }),
            },
          ]
        : undefined,
  });
  return {
    name: spec.name,
    // successes only: a failed request (a replayed challenge, say) must not count as throughput
    requestsPerSecond: result[spec.success ?? '2xx'] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: spec.success === '3xx' ? result.requests.total - result['3xx'] : result.non2xx,
    errors: result.errors,
  };
}

export interface RouteUnderTest {
  name: string;
  /** Builds the load for one round (e.g. a fresh pool of signed challenges). */
  load: (durationSeconds: number) => Promise<LoadSpec> | LoadSpec;
}

export interface RouteSummary {
  name: string;
  /** Median over the rounds. */
  requestsPerSecond: number;
  p50: number;
  p99: number;
  failures: number;
  /** Median of each round's ratio to the baseline measured beside it. */
  ratio: number;
  ratioRange: [number, number];
}

const pct = (x: number) => `${(x * 100).toFixed(0)}%`;

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * Measures routes side by side with a baseline in many short interleaved rounds (baseline,
 * then each route, again and again, and the baseline once more at the end). Each route's
 * ratio in a round is to the mean of the baseline measured just before and just after it, so
 * the drift of a shared machine (here the same code's speed wanders by up to 2× within a
 * minute) cancels out instead of landing on one side. Prints each route's median throughput
 * and the median of its per-round ratios.
 */
export async function compareRoutes(o: {
  title: string;
  baseline: RouteUnderTest;
  routes: RouteUnderTest[];
  rounds?: number;
  durationSeconds?: number;
  targets?: Record<string, number>;
}): Promise<RouteSummary[]> {
  const rounds = o.rounds ?? 12;
  const duration = o.durationSeconds ?? 1.5;
  const all = [o.baseline, ...o.routes];
  for (const route of all) await measure({ ...(await route.load(1)), durationSeconds: 1, amount: undefined }); // warm-up
  const results: LoadResult[][] = all.map(() => []);
  for (let round = 0; round <= rounds; round++) {
    results[0].push(await measure({ durationSeconds: duration, ...(await o.baseline.load(duration)) }));
    if (round === rounds) break; // the closing baseline of the last round
    for (const [i, route] of o.routes.entries()) {
      results[i + 1].push(await measure({ durationSeconds: duration, ...(await route.load(duration)) }));
    }
  }
  const baselineAround = (round: number) =>
    (results[0][round].requestsPerSecond + results[0][round + 1].requestsPerSecond) / 2;
  const summaries = all.map((route, i): RouteSummary => {
    const ratios = results[i]
      .slice(0, rounds)
      .map((r, round) => r.requestsPerSecond / (i === 0 ? r.requestsPerSecond : baselineAround(round)));
    return {
      name: route.name,
      requestsPerSecond: median(results[i].map((r) => r.requestsPerSecond)),
      p50: median(results[i].map((r) => r.p50)),
      p99: median(results[i].map((r) => r.p99)),
      failures: results[i].reduce((n, r) => n + r.non2xx + r.errors, 0),
      ratio: median(ratios),
      ratioRange: [Math.min(...ratios), Math.max(...ratios)],
    };
  });
  console.log(
    `\n## ${o.title} — ${rounds} interleaved rounds of ${duration} s, medians; each ratio against the baseline just before and after`,
  );
  console.log('| route | req/s | p50 ms | p99 ms | failed | vs baseline | range | target |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const s of summaries) {
    const target = o.targets?.[s.name];
    const verdict = target === undefined ? '' : `≥ ${pct(target)} ${s.ratio >= target ? 'met' : 'NOT MET'}`;
    console.log(
      `| ${s.name} | ${s.requestsPerSecond.toFixed(0)} | ${s.p50} | ${s.p99} | ${s.failures} | ${pct(s.ratio)} | ${pct(s.ratioRange[0])}–${pct(s.ratioRange[1])} | ${verdict} |`,
    );
  }
  return summaries;
}

/** One route measured in two settings (the same route on two databases, say): A is the reference. */
export interface PairUnderTest {
  name: string;
  a: RouteUnderTest['load'];
  b: RouteUnderTest['load'];
  /** B / A at least this much. */
  target?: number;
}

export interface PairSummary {
  name: string;
  a: { requestsPerSecond: number; p50: number; p99: number };
  b: { requestsPerSecond: number; p50: number; p99: number };
  failures: number;
  /** Median of each round's B against the mean of the A measured just before and just after it. */
  ratio: number;
  ratioRange: [number, number];
  target?: number;
}

/**
 * Each pair in turn, A and B alternating (A, B, A, B, …, A: `rounds` Bs between `rounds` + 1
 * As), each B's ratio against the mean of the A just before and just after it, as
 * compareRoutes does against its baseline: the machine's drift cancels. Prints one table.
 */
export async function comparePairs(o: {
  title: string;
  labels: [string, string];
  pairs: PairUnderTest[];
  rounds?: number;
  durationSeconds?: number;
}): Promise<PairSummary[]> {
  const rounds = o.rounds ?? 5;
  const duration = o.durationSeconds ?? 1.5;
  const summaries: PairSummary[] = [];
  for (const pair of o.pairs) {
    for (const load of [pair.a, pair.b]) await measure({ ...(await load(1)), durationSeconds: 1, amount: undefined }); // warm-up
    const as: LoadResult[] = [];
    const bs: LoadResult[] = [];
    for (let round = 0; round <= rounds; round++) {
      as.push(await measure({ durationSeconds: duration, ...(await pair.a(duration)) }));
      if (round < rounds) bs.push(await measure({ durationSeconds: duration, ...(await pair.b(duration)) }));
    }
    const ratios = bs.map(
      (b, round) => b.requestsPerSecond / ((as[round]!.requestsPerSecond + as[round + 1]!.requestsPerSecond) / 2),
    );
    const figures = (rs: LoadResult[]) => ({
      requestsPerSecond: median(rs.map((r) => r.requestsPerSecond)),
      p50: median(rs.map((r) => r.p50)),
      p99: median(rs.map((r) => r.p99)),
    });
    summaries.push({
      name: pair.name,
      a: figures(as),
      b: figures(bs),
      failures: [...as, ...bs].reduce((n, r) => n + r.non2xx + r.errors, 0),
      ratio: median(ratios),
      ratioRange: [Math.min(...ratios), Math.max(...ratios)],
      target: pair.target,
    });
  }
  const [a, b] = o.labels;
  console.log(
    `\n## ${o.title} — per route, ${rounds} rounds of ${duration} s alternating ${a} and ${b}; each ratio against the ${a} figure just before and after`,
  );
  console.log(
    `| route | req/s ${a} | req/s ${b} | p50 ms ${a} | p50 ms ${b} | p99 ms ${a} | p99 ms ${b} | failed | ${b} / ${a} | range | target |`,
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const s of summaries) {
    const verdict = s.target === undefined ? '' : `≥ ${pct(s.target)} ${s.ratio >= s.target ? 'met' : 'NOT MET'}`;
    console.log(
      `| ${s.name} | ${s.a.requestsPerSecond.toFixed(0)} | ${s.b.requestsPerSecond.toFixed(0)} | ${s.a.p50} | ${s.b.p50} | ${s.a.p99} | ${s.b.p99} | ${s.failures} | ${pct(s.ratio)} | ${pct(s.ratioRange[0])}–${pct(s.ratioRange[1])} | ${verdict} |`,
    );
  }
  return summaries;
}
