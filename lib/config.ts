import { z } from 'zod';
import { LOCALNET_PROGRAM_ID } from '@/lib/registry/program-id';
import { PublicKeyString } from '@/lib/solana/keys';

/**
 * The one typed configuration (DESIGN.md "Configuration"), parsed from the environment once.
 * An invalid value stops start-up with a message naming the variable.
 */
const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || isUrlWith(v, protocols), {
      message: `must be a URL (${protocols.join(', ')})`,
    });

function isUrlWith(value: string, protocols: string[]): boolean {
  try {
    return protocols.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

const positiveInt = (fallback: number) =>
  z.coerce.number().int().positive().default(fallback);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:']),
  POSTGRES_URL: optionalUrl(['postgres:', 'postgresql:']),
  SOLANA_RPC_URL: optionalUrl(['http:', 'https:']),
  SOLANA_PUBLIC_RPC_URL: optionalUrl(['http:', 'https:']),
  SOLANA_RPC_TIMEOUT_MS: positiveInt(10_000),
  SOLANA_CLUSTER: z.enum(['mainnet-beta', 'devnet', 'testnet', 'localnet']).default('localnet'),
  TAG_PROGRAM_ID: PublicKeyString.default(LOCALNET_PROGRAM_ID),
  APP_URL: z
    .string()
    .default('http://localhost:3000')
    .refine((v) => isUrlWith(v, ['http:', 'https:']), { message: 'must be an http(s) URL' }),
  AUTH_DOMAINS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((d) => d.trim().toLowerCase()).filter(Boolean))
    .refine((list) => list.every((d) => /^[a-z0-9.-]+(:\d{1,5})?$/.test(d)), {
      message: 'must be a comma-separated list of host[:port]',
    }),
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  CRON_SECRET: z.string().optional().transform((v) => (v ? v : undefined)),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional().or(z.literal('').transform(() => undefined)),
  AUTH_RATE_LIMIT: positiveInt(30),
  AUTH_RATE_LIMIT_WINDOW_SECONDS: positiveInt(60),
  SYNC_RATE_LIMIT: positiveInt(60),
  REGISTER_RATE_LIMIT: positiveInt(30),
  AVAILABILITY_RATE_LIMIT: positiveInt(120),
  PRIMARY_RATE_LIMIT: positiveInt(30),
  AVATAR_RATE_LIMIT: positiveInt(600),
  /**
   * Who tells the client's address: `direct` (the socket's peer, through scripts/serve.ts;
   * forwarding headers ignored), `proxy` (the TRUSTED_PROXY_HOPS-th `x-forwarded-for` entry from
   * the right) or `vercel` (the address Vercel's edge sets). Default: `vercel` on Vercel, else
   * `direct`.
   */
  CLIENT_ADDRESS_SOURCE: z.enum(['direct', 'proxy', 'vercel']).optional(),
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(1).max(10).optional(),
  /** PostgreSQL statement_timeout of every connection. */
  DATABASE_STATEMENT_TIMEOUT_MS: positiveInt(5000),
  /** Opening one connection (TCP, TLS and start-up). */
  DATABASE_CONNECT_TIMEOUT_MS: positiveInt(5000),
  /** Waiting for a connection of the pool (all busy), connecting included. */
  DATABASE_POOL_ACQUIRE_TIMEOUT_MS: positiveInt(3000),
  DATABASE_POOL_SIZE: positiveInt(10),
  INDEXER_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(15),
  /** Which percentile of the cluster's recent prioritization fees a built transaction bids. */
  PRIORITY_FEE_PERCENTILE: z.coerce.number().int().min(0).max(100).default(75),
  /** The most a built transaction bids per compute unit, in micro-lamports, whatever the cluster asks. */
  PRIORITY_FEE_MAX_MICRO_LAMPORTS: z.coerce.number().int().min(0).max(1_000_000_000).default(5_000_000),
  /** getSignaturesForAddress page size; a node answers at most 1,000. */
  INDEXER_PAGE_SIZE: z.coerce.number().int().min(1).max(1000).default(1000),
  INDEXER_MAX_TRANSACTIONS: positiveInt(5000),
  /** Payers are warned (/@tag, the pay Action, signals) when the payout wallet changed within this many hours. */
  PAYER_WALLET_CHANGE_WARNING_HOURS: positiveInt(72),
  DATA_DIR: z.string().default('.data'),
  /**
   * `1` lifts the webhook target checks (https, public addresses) so that tests and local
   * development can deliver to http://127.0.0.1. Never in production.
   */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: z.enum(['0', '1', '']).default('0'),
  /** One delivery attempt, connecting included. */
  WEBHOOK_TIMEOUT_MS: positiveInt(10_000),
  WEBHOOK_MAX_PER_OWNER: positiveInt(10),
  /** `npm start` runs a delivery pass this often (0: only with the indexer's cron). */
  WEBHOOK_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(1),
  /** /v1/webhooks requests per client address and minute. */
  WEBHOOK_RATE_LIMIT: positiveInt(60),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  database:
    | { driver: 'pglite'; dataDir: string }
    | { driver: 'node-postgres'; url: string }
    | { driver: 'vercel-postgres'; url: string };
  solana: {
    rpcUrl: string | undefined;
    /** What browsers are given: a paid RPC URL with a key in it must not reach the page. */
    publicRpcUrl: string | undefined;
    cluster: Env['SOLANA_CLUSTER'];
    programId: string;
  };
  /** How long one JSON-RPC call may take before the cluster counts as unreachable. */
  rpcTimeoutMs: number;
  /** Database deadlines (ms) and pool size: a hung database answers 503, never hangs a request. */
  databaseLimits: DatabaseLimits;
  appUrl: URL;
  /** Host (with port) of APP_URL: the sign-in domain. */
  authDomain: string;
  /** Extra sign-in domains allowed through a matching `Origin`. */
  extraAuthDomains: string[];
  authSecret: string | undefined;
  cronSecret: string | undefined;
  /**
   * The operator's bearer secret: when set, GET /api/metrics answers only with it; the
   * indexer status adds its private details (reasons, the last error) only with it.
   */
  metricsToken: string | undefined;
  authRateLimit: { limit: number; windowSeconds: number };
  syncRateLimit: { limit: number; windowSeconds: number };
  registerRateLimit: { limit: number; windowSeconds: number };
  /** Each availability check costs an RPC call: limited per client address. */
  availabilityRateLimit: { limit: number; windowSeconds: number };
  /** PUT /v1/primary per client address. */
  primaryRateLimit: { limit: number; windowSeconds: number };
  /** GET /api/avatar/{tag} per client address: each request fetches the image from its host. */
  avatarRateLimit: { limit: number; windowSeconds: number };
  /** Where the client address that rate limits key on comes from (lib/api/client-address.ts). */
  clientAddress: ClientAddressSource;
  indexerIntervalSeconds: number;
  webhookIntervalSeconds: number;
  /** How every built transaction prices its compute units (lib/chain/priority-fee.ts). */
  priorityFee: PriorityFeePolicy;
  /** Signatures per getSignaturesForAddress page, and transactions at most per indexer run. */
  indexer: { pageSize: number; maxTransactions: number };
  /** Webhook delivery (lib/webhooks): what the routes and every delivery pass need. */
  webhooks: WebhookConfig;
  /** /v1/webhooks per client address. */
  webhookRateLimit: { limit: number; windowSeconds: number };
  /** How recent a payout-wallet change must be for payers to be warned (lib/identity/payer-warnings.ts). */
  walletChangeWarningMs: number;
  dataDir: string;
}

export interface WebhookConfig {
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS=1: http and non-public addresses allowed (tests, local development). */
  allowPrivateTargets: boolean;
  timeoutMs: number;
  maxPerOwner: number;
}

export interface PriorityFeePolicy {
  /** Percentile (0–100) of the recent per-slot fees of the transaction's writable accounts. */
  percentile: number;
  /** Ceiling in micro-lamports per compute unit. */
  maxMicroLamports: number;
}

export type ClientAddressSource = { source: 'direct' } | { source: 'vercel' } | { source: 'proxy'; hops: number };

export interface DatabaseLimits {
  statementTimeoutMs: number;
  connectTimeoutMs: number;
  poolAcquireTimeoutMs: number;
  poolSize: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function parseConfig(source: Record<string, string | undefined>): Config {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = result.data;
  if (e.NODE_ENV === 'production' && !e.AUTH_SECRET && source.VERCEL) {
    throw new ConfigError('Invalid configuration:\n  AUTH_SECRET: required in production');
  }
  const appUrl = new URL(e.APP_URL);
  const clientAddress = clientAddressSource(e, source);
  return {
    env: e.NODE_ENV,
    database: e.DATABASE_URL
      ? { driver: 'node-postgres', url: e.DATABASE_URL }
      : e.POSTGRES_URL
        ? { driver: 'vercel-postgres', url: e.POSTGRES_URL }
        : { driver: 'pglite', dataDir: `${e.DATA_DIR}/pglite` },
    solana: {
      rpcUrl: e.SOLANA_RPC_URL,
      publicRpcUrl: e.SOLANA_PUBLIC_RPC_URL ?? e.SOLANA_RPC_URL,
      cluster: e.SOLANA_CLUSTER,
      programId: e.TAG_PROGRAM_ID,
    },
    rpcTimeoutMs: e.SOLANA_RPC_TIMEOUT_MS,
    databaseLimits: {
      statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
      connectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
      poolAcquireTimeoutMs: e.DATABASE_POOL_ACQUIRE_TIMEOUT_MS,
      poolSize: e.DATABASE_POOL_SIZE,
    },
    appUrl,
    authDomain: appUrl.host,
    extraAuthDomains: e.AUTH_DOMAINS,
    authSecret: e.AUTH_SECRET,
    cronSecret: e.CRON_SECRET,
    metricsToken: e.METRICS_TOKEN,
    authRateLimit: { limit: e.AUTH_RATE_LIMIT, windowSeconds: e.AUTH_RATE_LIMIT_WINDOW_SECONDS },
    syncRateLimit: { limit: e.SYNC_RATE_LIMIT, windowSeconds: 60 },
    registerRateLimit: { limit: e.REGISTER_RATE_LIMIT, windowSeconds: 60 },
    availabilityRateLimit: { limit: e.AVAILABILITY_RATE_LIMIT, windowSeconds: 60 },
    primaryRateLimit: { limit: e.PRIMARY_RATE_LIMIT, windowSeconds: 60 },
    avatarRateLimit: { limit: e.AVATAR_RATE_LIMIT, windowSeconds: 60 },
    clientAddress,
    indexerIntervalSeconds: e.INDEXER_INTERVAL_SECONDS,
    webhookIntervalSeconds: e.WEBHOOK_INTERVAL_SECONDS,
    priorityFee: { percentile: e.PRIORITY_FEE_PERCENTILE, maxMicroLamports: e.PRIORITY_FEE_MAX_MICRO_LAMPORTS },
    indexer: { pageSize: e.INDEXER_PAGE_SIZE, maxTransactions: e.INDEXER_MAX_TRANSACTIONS },
    webhooks: {
      allowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS === '1',
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      maxPerOwner: e.WEBHOOK_MAX_PER_OWNER,
    },
    webhookRateLimit: { limit: e.WEBHOOK_RATE_LIMIT, windowSeconds: 60 },
    walletChangeWarningMs: e.PAYER_WALLET_CHANGE_WARNING_HOURS * 3_600_000,
    dataDir: e.DATA_DIR,
  };
}

/**
 * Fails closed: a mode that cannot tell the client's address is refused at start-up rather
 * than letting clients choose theirs (Vercel's header exists only on Vercel; a hop count only
 * means something behind a proxy).
 */
function clientAddressSource(e: Env, source: Record<string, string | undefined>): ClientAddressSource {
  const mode = e.CLIENT_ADDRESS_SOURCE ?? (source.VERCEL ? 'vercel' : 'direct');
  const invalid = (line: string) => new ConfigError(`Invalid configuration:\n  ${line}`);
  if (mode === 'proxy') {
    if (e.TRUSTED_PROXY_HOPS === undefined) {
      throw invalid('TRUSTED_PROXY_HOPS: required with CLIENT_ADDRESS_SOURCE=proxy (how many proxies append to x-forwarded-for)');
    }
    return { source: 'proxy', hops: e.TRUSTED_PROXY_HOPS };
  }
  if (e.TRUSTED_PROXY_HOPS !== undefined) {
    throw invalid(`TRUSTED_PROXY_HOPS: applies only with CLIENT_ADDRESS_SOURCE=proxy (it is ${mode})`);
  }
  if (mode === 'vercel' && !source.VERCEL) {
    throw invalid('CLIENT_ADDRESS_SOURCE: vercel is only for deployments on Vercel (VERCEL is not set)');
  }
  return { source: mode };
}

let cached: Config | undefined;

/** The process's configuration, parsed on first use; throws ConfigError when invalid. */
export function getConfig(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}
