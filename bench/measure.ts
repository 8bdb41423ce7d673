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
  connections?: number;
  durationSeconds?: number;
  /** Stop after this many requests instead of after a duration. */
  amount?: number;
}

/** One load run with autocannon over loopback; throughput and latency percentiles (ms). */
export async function measure(spec: LoadSpec): Promise<LoadResult> {
  const { nextBody } = spec;
  const result = await autocannon({
    url: spec.url,
    connections: spec.connections ?? 10,
    duration: spec.durationSeconds ?? 5,
    amount: spec.amount,
    method: spec.method ?? 'GET',
    headers: spec.headers,
    body: spec.body,
    requests: nextBody ? [{ setupRequest: (req) => ({ ...req, body: nextBody() }) }] : undefined,
  });
  return {
    name: spec.name,
    requestsPerSecond: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** Prints results as a table, with each row's throughput as a share of the baseline's. */
export function printComparison(title: string, baseline: LoadResult, rows: LoadResult[], targets: Record<string, number> = {}): void {
  console.log(`\n## ${title}`);
  console.log('| route | req/s | p50 ms | p99 ms | non-2xx | vs baseline | target |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of [baseline, ...rows]) {
    const ratio = r === baseline ? '100%' : `${((r.requestsPerSecond / baseline.requestsPerSecond) * 100).toFixed(0)}%`;
    const target = targets[r.name] !== undefined ? `≥ ${(targets[r.name] * 100).toFixed(0)}%` : '';
    console.log(`| ${r.name} | ${r.requestsPerSecond.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.non2xx + r.errors} | ${ratio} | ${target} |`);
  }
}
