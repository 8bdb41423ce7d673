import type { Attributes, Counter, Histogram, Meter } from '@opentelemetry/api';
import { PrometheusExporter, PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader, type IMetricReader } from '@opentelemetry/sdk-metrics';

/*
 * The service's metrics (README "Operating the service", "Metrics"), with OpenTelemetry's
 * SDK: read in Prometheus's text format at GET /api/metrics (each instance scraped on its
 * own), and pushed over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set (Vercel, where no
 * scraper reaches a function). One MeterProvider per process, on globalThis: Next.js gives
 * each route's chunk its own module state, and /api/metrics must read what every route counted.
 * Durations are named with their unit (`…_seconds`), as Prometheus names them; this exporter
 * does not add it.
 */

/** Request latency buckets, seconds: a cached read is a millisecond, a sign-in a few. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Waiting for a pooled connection, seconds: nothing when one is idle, up to the acquire deadline. */
const POOL_WAIT_BUCKETS = [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 3, 5];
const RUN_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** What a pg pool shows of its state (pg-pool's counters). */
export interface PoolState {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** The indexer's distance from the chain, read when metrics are collected (./indexer-gauges.ts). */
export interface IndexerLag {
  slots: number;
  seconds: number | null;
  deferred: number;
}

interface Telemetry {
  provider: MeterProvider;
  prometheus: PrometheusExporter;
  requests: Counter;
  requestDuration: Histogram;
  refusals: Counter;
  poolWait: Histogram;
  poolFailures: Counter;
  pools: Map<string, PoolState>;
  /** `{ pool }` of each pool, made once. */
  poolAttributes: Map<string, Attributes>;
  indexerRuns: Counter;
  indexerTransactions: Counter;
  indexerRunDuration: Histogram;
  indexerLag: { read: (() => Promise<IndexerLag | null>) | null };
  rpcCalls: Counter;
  rpcCallDuration: Histogram;
}

function exportIntervalMs(): number {
  const value = Number(process.env.OTEL_METRIC_EXPORT_INTERVAL);
  return Number.isFinite(value) && value >= 1000 ? value : 60_000;
}

function createTelemetry(): Telemetry {
  const prometheus = new PrometheusExporter({ preventServerStart: true });
  const readers: IMetricReader[] = [prometheus];
  if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) {
    // the exporter reads OTEL_EXPORTER_OTLP_ENDPOINT and OTEL_EXPORTER_OTLP_HEADERS itself
    readers.push(
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter(),
        exportIntervalMillis: exportIntervalMs(),
      }),
    );
  }
  const provider = new MeterProvider({
    resource: resourceFromAttributes({ 'service.name': process.env.OTEL_SERVICE_NAME || 'identity-tag-service' }),
    readers,
  });
  const meter: Meter = provider.getMeter('identity-tag-service');
  const pools = new Map<string, PoolState>();
  const indexerLag: Telemetry['indexerLag'] = { read: null };
  const counter = (name: string, description: string) => meter.createCounter(name, { description });
  const gauge = (name: string, description: string, unit?: string) =>
    meter.createObservableGauge(name, { description, unit });
  // Every duration is in seconds, with buckets of its own.
  const durationSeconds = (name: string, description: string, buckets: number[]) =>
    meter.createHistogram(name, { unit: 's', description, advice: { explicitBucketBoundaries: buckets } });

  const poolGauges = {
    waiting: gauge('db.pool.waiting', 'Queries waiting for a pooled connection, now'),
    connections: gauge('db.pool.connections', 'Pooled connections, by state (idle, busy)'),
  };
  meter.addBatchObservableCallback(
    (result) => {
      for (const [pool, state] of pools) {
        result.observe(poolGauges.waiting, state.waitingCount, { pool });
        result.observe(poolGauges.connections, state.idleCount, { pool, state: 'idle' });
        result.observe(poolGauges.connections, state.totalCount - state.idleCount, { pool, state: 'busy' });
      }
    },
    [poolGauges.waiting, poolGauges.connections],
  );

  const lagGauges = {
    slots: gauge('indexer.lag.slots', 'Finalized slots the mirror has not indexed yet'),
    seconds: gauge('indexer.lag.seconds', 'Block time between the newest finalized slot and the last indexed one', 's'),
    deferred: gauge(
      'indexer.deferred',
      'Transactions the indexer could not read yet (the cursor waits before the oldest)',
    ),
  };
  meter.addBatchObservableCallback(
    async (result) => {
      const lag = await indexerLag.read?.().catch(() => null);
      if (!lag) return; // no figure rather than a wrong one: alert on its absence too
      result.observe(lagGauges.slots, lag.slots);
      if (lag.seconds !== null) result.observe(lagGauges.seconds, lag.seconds);
      result.observe(lagGauges.deferred, lag.deferred);
    },
    [lagGauges.slots, lagGauges.seconds, lagGauges.deferred],
  );

  return {
    provider,
    prometheus,
    requests: counter('http.server.requests', 'Requests answered, by route, method and status'),
    requestDuration: durationSeconds(
      'http.server.request.duration.seconds',
      'Time to answer a request (to the response headers), by route, method and status',
      LATENCY_BUCKETS,
    ),
    refusals: counter('rate_limit.refusals', 'Requests refused with 429 by a rate limit, by route'),
    poolWait: durationSeconds(
      'db.pool.acquire.duration.seconds',
      'Time a query waited for a pooled connection, by pool',
      POOL_WAIT_BUCKETS,
    ),
    poolFailures: counter(
      'db.pool.acquire.failures',
      'Waits for a pooled connection that failed (deadline, connect error), by pool',
    ),
    pools,
    poolAttributes: new Map(),
    indexerRuns: counter(
      'indexer.runs',
      'Indexer runs, by outcome (completed, failed, skipped: another run held the lock)',
    ),
    indexerTransactions: counter(
      'indexer.transactions',
      'Transactions the indexer handled, by result (processed: the cursor moved past it; deferred; recorded_skip)',
    ),
    indexerRunDuration: durationSeconds('indexer.run.duration.seconds', 'Duration of an indexer run', RUN_BUCKETS),
    indexerLag,
    rpcCalls: counter(
      'solana.rpc.calls',
      'JSON-RPC calls to the Solana cluster, by method and outcome (ok, rate_limited, unreachable, http_error)',
    ),
    rpcCallDuration: durationSeconds(
      'solana.rpc.call.duration.seconds',
      'Time one JSON-RPC call took, its 429 waits included, by method and outcome',
      LATENCY_BUCKETS,
    ),
  };
}

const SLOT = Symbol.for('identity-tag-service.telemetry');
const holder = globalThis as unknown as Record<symbol, Telemetry | undefined>;

function telemetry(): Telemetry {
  return (holder[SLOT] ??= createTelemetry());
}

/** One answered request. */
export function recordRequest(route: string, method: string, status: number, seconds: number): void {
  const t = telemetry();
  const attributes = { route, method, status };
  t.requests.add(1, attributes);
  t.requestDuration.record(seconds, attributes);
  if (status === 429) t.refusals.add(1, { route });
}

/** One wait for a pooled connection, and whether it got one. */
export function recordPoolWait(pool: string, seconds: number, ok: boolean): void {
  const t = telemetry();
  let attributes = t.poolAttributes.get(pool);
  if (!attributes) {
    attributes = { pool };
    t.poolAttributes.set(pool, attributes);
  }
  t.poolWait.record(seconds, attributes);
  if (!ok) t.poolFailures.add(1, attributes);
}

/** Reports `state` (read when metrics are collected) under `pool`. */
export function watchPoolState(pool: string, state: PoolState): void {
  telemetry().pools.set(pool, state);
}

/** One indexer run: its outcome, how long it took, and what it did with transactions. */
export function recordIndexerRun(
  outcome: 'completed' | 'failed' | 'skipped',
  seconds: number,
  transactions: { processed: number; deferred: number; recordedSkips: number },
): void {
  const t = telemetry();
  t.indexerRuns.add(1, { outcome });
  t.indexerRunDuration.record(seconds, { outcome });
  t.indexerTransactions.add(transactions.processed, { result: 'processed' });
  t.indexerTransactions.add(transactions.deferred, { result: 'deferred' });
  t.indexerTransactions.add(transactions.recordedSkips, { result: 'recorded_skip' });
}

/** How one JSON-RPC call to the cluster ended (lib/chain/rpc.ts's transport). */
export type RpcOutcome = 'ok' | 'rate_limited' | 'unreachable' | 'http_error';

/** One JSON-RPC call (or batch, `method` "batch") to the cluster: its outcome and duration. */
export function recordRpcCall(method: string, outcome: RpcOutcome, seconds: number): void {
  const t = telemetry();
  const attributes = { method, outcome };
  t.rpcCalls.add(1, attributes);
  t.rpcCallDuration.record(seconds, attributes);
}

/** Where the indexer's lag gauges are read from when metrics are collected. */
export function readIndexerLagWith(read: () => Promise<IndexerLag | null>): void {
  telemetry().indexerLag.read = read;
}

const serializer = new PrometheusSerializer('', false, undefined, false, true);

/** Every metric of this process, in Prometheus's text format. */
export async function prometheusText(): Promise<string> {
  const { resourceMetrics } = await telemetry().prometheus.collect();
  return serializer.serialize(resourceMetrics);
}
