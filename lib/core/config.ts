import bs58 from 'bs58';
import { z } from 'zod';
import { LOCALNET_PROGRAM_ID } from '@/packages/tag-registry/src';
import { PublicKeyString } from '@/lib/core/keys';
import { rateLimitPolicies, type RateLimitPolicies } from '@/lib/core/rate-limit-buckets';

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

const postgresUrl = () => optionalUrl(['postgres:', 'postgresql:']);
const httpUrl = () => optionalUrl(['http:', 'https:']);

const port = (fallback: number) =>
  z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).max(65535).default(fallback));

/** How a process bounds its heavy work (HEAVY_WORK_*; lib/http/heavy-work.ts). */
export interface HeavyWorkBound {
  concurrency: number;
  /** 0..1; 1 turns the event-loop bound off. */
  maxEventLoopUtilization: number;
  /** Bytes of heavy answers (feed pages, share images) started per second; Infinity: no bound. */
  bytesPerSecond: number;
}

/** What docs/configuration.md's table says of a variable (`npm run config:readme` writes it). */
export interface VariableDoc {
  /** One line: what it sets and, where it is not obvious, who sets it. */
  description: string;
  /** When a production deployment must set it; absent: never. */
  production?: string;
  /** The default in words, where the schema's own default does not say it. */
  shownDefault?: string;
}

/** Each variable's documentation, beside its schema (lib/core/config-table.ts reads it). */
export const variableDocs = z.registry<VariableDoc>();
/** `schema` with its documentation: a description always, `production` and `shownDefault` where they apply. */
function doc<T extends z.ZodType>(schema: T, description: string, more: Omit<VariableDoc, 'description'> = {}): T {
  variableDocs.add(schema as z.ZodType, { description, ...more });
  return schema;
}

/**
 * Every environment variable the service reads: what a deployment sets or tunes, and the few
 * a test or benchmark needs (each says so). Figures nobody sets are constants beside the code
 * that uses them, each with its reason (rate limits: lib/core/rate-limit-buckets.ts; database
 * deadlines: lib/db/client.ts; the RPC deadline: lib/chain/rpc.ts; webhooks: lib/features/webhooks).
 */
export const envSchema = z.object({
  NODE_ENV: doc(
    z.enum(['development', 'production', 'test']).default('development'),
    '`npm start` and `next start` set `production`, `npm run dev` `development`',
  ),
  VERCEL: doc(
    z.string().optional(),
    "set by Vercel, never by hand: AUTH_SECRET becomes required, the client address comes from Vercel's edge, and log lines are written as they come (lib/observability/logger.ts)",
  ),
  PORT: doc(port(3000), 'port `npm start` / `npm run dev` listen on'),
  HOST: doc(
    z
      .string()
      .optional()
      .transform((v) => v || undefined),
    "address `npm start` / `npm run dev` listen on (not HOSTNAME: shells set that to the machine's name)",
    {
      shownDefault: 'all interfaces',
    },
  ),
  KEEP_ALIVE_TIMEOUT_MS: doc(
    z.coerce.number().int().min(1000).max(3_600_000).default(65_000),
    'how long `npm start` keeps an idle keep-alive connection open: above the idle timeout of the load balancer in front (60 s on most), so that the balancer, not the app, closes it (else the intermittent 502s of docs/operating-rpc.md)',
  ),
  HEADERS_TIMEOUT_MS: doc(
    z.coerce.number().int().min(1000).max(3_600_000).default(66_000),
    "how long `npm start` waits for a request's headers; above KEEP_ALIVE_TIMEOUT_MS, as Node.js asks (docs/operating-rpc.md)",
  ),
  HEAVY_WORK_CONCURRENCY: doc(
    z.coerce.number().int().min(1).max(1000).default(4),
    'expensive requests (feed pages, share images, batch lookups) one process works on at once; past it they are answered 503 `overloaded` with Retry-After, so that they cannot starve the rest (lib/http/heavy-work.ts)',
  ),
  HEAVY_WORK_MAX_EVENT_LOOP_UTILIZATION: doc(
    z.coerce.number().min(0.1).max(1).default(0.7),
    'the share of the last quarter second the event loop may have been busy for a heavy request (a feed page, a share image, a batch lookup) to be served; past it, 503 `overloaded` with Retry-After, so that health and identity reads keep the rest. 1 turns this bound off (lib/http/heavy-work.ts)',
  ),
  HEAVY_WORK_BYTES_PER_SECOND: doc(
    z.coerce
      .number()
      .int()
      .min(0)
      .default(16 * 1024 * 1024),
    'bytes of heavy answers (feed pages, share images) one process starts to send per second, in bursts of at most a sixteenth of a second of them (one 1 MiB page at the default); past it, 503 `overloaded` with Retry-After. 0 turns this bound off (lib/http/heavy-work.ts)',
  ),
  DATABASE_URL: doc(postgresUrl(), 'PostgreSQL URL, through node-postgres', {
    production: 'this or POSTGRES_URL, with more than one instance',
    shownDefault: 'unset: embedded PGlite in `DATA_DIR/pglite` (one process only)',
  }),
  POSTGRES_URL: doc(
    postgresUrl(),
    'on Vercel (Neon integration), through `@vercel/postgres`; set `statement_timeout` on the database role, its pooler refuses it at connect',
  ),
  DATABASE_POOL_SIZE: doc(
    z.coerce.number().int().positive().default(10),
    'connections of the main pool per process (the sign-in and rate-limit statements have 3 of their own); lower it for many serverless instances',
  ),
  SOLANA_RPC_URL: doc(httpUrl(), 'JSON-RPC endpoint of the cluster', {
    production: 'required',
    shownDefault: 'unset: a localnet started with the app',
  }),
  SOLANA_PUBLIC_RPC_URL: doc(httpUrl(), "the RPC endpoint given to browsers (keep a provider's API key out of pages)", {
    production: 'when SOLANA_RPC_URL holds a key',
    shownDefault: '`SOLANA_RPC_URL`',
  }),
  SOLANA_CLUSTER: doc(
    z.enum(['mainnet-beta', 'devnet', 'testnet', 'localnet']).default('localnet'),
    "`mainnet-beta`, `devnet`, `testnet` or `localnet` (explorer links, the wallet's chain); start-up checks it against the genesis hash of `SOLANA_RPC_URL`'s cluster and refuses to run on another (unset: the cluster must be a local one)",
    {
      production: 'required',
    },
  ),
  TAG_PROGRAM_ID: doc(PublicKeyString.default(LOCALNET_PROGRAM_ID), 'address of the tag registry program', {
    production: 'required',
    shownDefault: "the localnet program's fixed id",
  }),
  LOCALNET_PORT: doc(port(8899), 'port of the localnet `npm start` starts when SOLANA_RPC_URL is unset'),
  APP_URL: doc(httpUrl(), 'public origin; its host is the sign-in domain', {
    production: 'required',
    shownDefault: '`http://localhost:PORT`',
  }),
  AUTH_DOMAINS: doc(
    z
      .string()
      .default('')
      .transform((v) =>
        v
          .split(',')
          .map((d) => d.trim().toLowerCase())
          .filter(Boolean),
      )
      .refine((list) => list.every((d) => /^[a-z0-9.-]+(:\d{1,5})?$/.test(d)), {
        message: 'must be a comma-separated list of host[:port]',
      }),
    'extra sign-in domains (comma-separated `host[:port]`), accepted through a matching `Origin`',
    { shownDefault: 'none' },
  ),
  AUTH_SECRET: doc(
    z.string().min(32, 'must be at least 32 characters').optional(),
    'signs session JWTs and next-auth sessions (≥ 32 characters); the same on every instance',
    {
      production: 'required (enforced on Vercel)',
      shownDefault: 'generated once into `DATA_DIR/auth-secret`',
    },
  ),
  ACTION_IDENTITY_SECRET: doc(
    z
      .string()
      .optional()
      .transform((v) => (v ? v.trim() : undefined))
      .refine((v) => v === undefined || secretKeyBytes(v) !== null, {
        message: 'must be a 64-byte ed25519 secret key: a `solana-keygen` file’s JSON array, or base58',
      }),
    'the service identity key that signs the Action Identity memo of the payments it builds (docs/integrators.md)',
    {
      production: 'required on mainnet-beta, devnet and testnet',
      shownDefault:
        'a key written in the source, for localnet only (public: it proves nothing; refused on any other cluster, in development too)',
    },
  ),
  ENS_GATEWAY_SIGNER_KEY: doc(
    z
      .string()
      .optional()
      .transform((v) =>
        v
          ? v
              .trim()
              .toLowerCase()
              .replace(/^(0x)?/, '0x')
          : undefined,
      )
      .refine((v) => v === undefined || isSecp256k1SecretKey(v), {
        message: 'must be a secp256k1 private key: 32 bytes as 64 hex digits, with or without 0x',
      }),
    'the key that signs the ENS gateway\'s answers (docs/integrators.md, "ENS"): the offchain resolver contract trusts its address, published at `GET /v1/ens`',
    {
      production: 'required on mainnet-beta, devnet and testnet (the localnet key is refused there)',
      shownDefault: 'a key written in the source, for localnet only (public: it proves nothing)',
    },
  ),
  ENS_PARENT_NAME: doc(
    z
      .string()
      .trim()
      .toLowerCase()
      .default('tags.localhost')
      .refine((v) => ENS_NAME.test(v), {
        message: 'must be a DNS name of two or more labels (a-z, 0-9, -), e.g. tags.example.eth',
      }),
    'the ENS name whose subnames are the tags (`alice.<parent>`): the name the operator points the offchain resolver of docs/integrators.md at',
  ),
  CRON_SECRET: doc(
    z
      .string()
      .optional()
      .transform((v) => (v ? v : undefined)),
    'bearer secret of `/api/cron/indexer` and `/api/cron/webhooks` (Vercel cron sends it)',
    {
      production: 'required where cron calls the app',
      shownDefault: 'unset: the routes refuse every call; `npm start` makes one per run',
    },
  ),
  METRICS_TOKEN: doc(
    z
      .string()
      .min(16, 'must be at least 16 characters')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    "the operator's bearer secret (≥ 16 characters): `GET /api/metrics` answers only with it, `GET /api/indexer/status` adds its private part only with it",
    { shownDefault: "unset: metrics open to anyone, the status's private part to no one" },
  ),
  CLIENT_ADDRESS_SOURCE: doc(
    z.enum(['direct', 'proxy', 'vercel']).optional(),
    "where the client address the rate limits key on comes from: `direct` (the socket's peer; `X-Forwarded-For` ignored), `proxy` (behind proxies of yours: see TRUSTED_PROXY_HOPS) or `vercel` (`x-vercel-forwarded-for`, set by Vercel's edge)",
    {
      production: 'behind a proxy of yours',
      shownDefault: '`vercel` on Vercel, else `direct`',
    },
  ),
  TRUSTED_PROXY_HOPS: doc(
    z.coerce.number().int().min(1).max(10).optional(),
    'with `proxy` only: how many proxies append to `x-forwarded-for`; the entry that many from the right is the client',
    {
      production: 'with `CLIENT_ADDRESS_SOURCE=proxy`',
    },
  ),
  RATE_LIMITS: doc(
    z
      .string()
      .default('')
      .transform((text, ctx) => {
        const policies = rateLimitPolicies(text);
        if (typeof policies === 'string') {
          ctx.addIssue({ code: 'custom', message: policies });
          return z.NEVER;
        }
        return policies;
      }),
    'overrides of the rate-limit buckets below, `bucket=limit[/windowSeconds]` comma-separated: for tests and benchmarks that send many requests from one address, or need a small budget to reach the 429',
    { shownDefault: "none: the buckets' figures" },
  ),
  PRIORITY_FEE_PERCENTILE: doc(
    z.coerce.number().int().min(0).max(100).default(75),
    "which percentile (0–100) of the cluster's recent prioritization fees, for the accounts a built transaction writes, it bids per compute unit (see [Compute budget and fees](integrators.md#compute-budget-and-fees))",
  ),
  PRIORITY_FEE_MAX_MICRO_LAMPORTS: doc(
    z.coerce.number().int().min(0).max(1_000_000_000).default(5_000_000),
    'the most a built transaction bids per compute unit, in micro-lamports, whatever the cluster asks',
  ),
  INDEXER_INTERVAL_SECONDS: doc(
    z.coerce.number().int().min(0).default(15),
    'interval of the indexer run by `npm start` / `npm run dev` (0: none, for a second instance or a test)',
  ),
  INDEXER_PAGE_SIZE: doc(
    z.coerce.number().int().min(1).max(1000).default(1000),
    '`getSignaturesForAddress` page size (a node answers at most 1,000; a provider may cap it lower; tests set it small so that one run pages)',
  ),
  PAYMENT_REFERENCE_TTL_SECONDS: doc(
    z.coerce
      .number()
      .int()
      .min(60)
      .max(7 * 24 * 3600)
      .default(1800),
    'how long an issued payment reference stays open (60 s to 7 days): a payment landing later settles nothing, the receipt reads `expired` and the finding pass stops reading for it; an unpaid one is deleted 7 days after (DESIGN.md "Payments and receipts")',
  ),
  WEBHOOK_INTERVAL_SECONDS: doc(
    z.coerce.number().int().min(0).default(1),
    "interval of the webhook delivery pass run by `npm start` / `npm run dev` (0: only with the indexer's cron)",
  ),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: doc(
    z.enum(['0', '1', '']).default('0'),
    '`1` lifts the https, port and public-address checks of webhook targets, so that tests and local development can deliver to 127.0.0.1. **Never in production**',
  ),
  DATA_DIR: doc(
    z.string().default('.data'),
    "folder of the embedded database, the localnet's state and the development secret",
  ),
  LOG_LEVEL: doc(
    z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent', '']).default('info'),
    'the least severe log line written (lib/observability/logger.ts)',
  ),
  OBSERVABILITY: doc(
    z.enum(['on', 'off', '']).default('on'),
    '`off` serves requests without request ids, metrics or request log lines (what the benchmark compares against)',
  ),
  OTEL_EXPORTER_OTLP_ENDPOINT: doc(
    httpUrl(),
    'also push the metrics over OTLP/HTTP (Vercel, where nothing can scrape a function)',
    {
      shownDefault: 'unset: scrape only',
    },
  ),
  OTEL_EXPORTER_OTLP_HEADERS: doc(
    z.string().optional(),
    'headers of the OTLP pushes (`key=value` comma-separated: an API key), read by the exporter',
  ),
  OTEL_METRIC_EXPORT_INTERVAL: doc(
    z.coerce.number().int().min(1000).default(60_000),
    'milliseconds between two OTLP pushes',
  ),
  OTEL_SERVICE_NAME: doc(z.string().default('identity-tag-service'), 'the `service.name` of the pushed metrics'),
});

export type Env = z.infer<typeof envSchema>;

/**
 * The service identity of local runs when ACTION_IDENTITY_SECRET is unset (its public key is
 * Hbq8oY12WPKHq31kii6FHw9gb3Y9PgraEzDa7QMF79bQ). Written here, so known to all: parseConfig
 * refuses to start without a key of the deployment's own on any public cluster.
 */
const LOCAL_ACTION_IDENTITY_SECRET =
  '46XrSTTxDEJMVVEMhZ9KZCTez9xEM9iXTEu5G5vnxQNaFV7pKVWLPtQgW2k1h4Wm4dZGkfCCk6UUkmGuEP1H3Mg6';

/**
 * The ENS gateway's signer on localnet when ENS_GATEWAY_SIGNER_KEY is unset (its address is
 * published at GET /v1/ens). Written here, so known to all: refused on every other cluster.
 */
export const LOCAL_ENS_GATEWAY_SIGNER_KEY =
  '0x6c6f63616c6e657420656e7320676174657761792c207075626c69632062793e' as const;

const ENS_NAME = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** secp256k1's group order: a private key is an integer in [1, n). */
const SECP256K1_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

function isSecp256k1SecretKey(hex: string): hex is `0x${string}` {
  if (!/^0x[0-9a-f]{64}$/.test(hex)) return false;
  const n = BigInt(hex);
  return n > 0n && n < SECP256K1_ORDER;
}

/** Whether a configured ACTION_IDENTITY_SECRET is the embedded, public, localnet key. */
function isLocalActionIdentity(text: string): boolean {
  const given = secretKeyBytes(text);
  const local = secretKeyBytes(LOCAL_ACTION_IDENTITY_SECRET)!;
  return given !== null && given.every((byte, i) => byte === local[i]);
}

/** A 64-byte secret key from a `solana-keygen` JSON array or base58; null when it is neither. */
function secretKeyBytes(text: string): Uint8Array | null {
  try {
    const bytes = text.startsWith('[') ? Uint8Array.from(JSON.parse(text) as number[]) : bs58.decode(text);
    return bytes.length === 64 ? bytes : null;
  } catch {
    return null;
  }
}

export interface Config {
  env: Env['NODE_ENV'];
  /** Where `npm start` / `npm run dev` listen, and the localnet they start without SOLANA_RPC_URL. */
  server: {
    port: number;
    host: string | undefined;
    localnetPort: number;
    /** Node's keepAliveTimeout and headersTimeout for `npm start` (docs/operating-rpc.md). */
    keepAliveTimeoutMs: number;
    headersTimeoutMs: number;
  };
  /** The bounds on expensive requests in one process: at once, the event loop's share, bytes a second (lib/http/heavy-work.ts). */
  heavyWork: HeavyWorkBound;
  database:
    | { driver: 'pglite'; dataDir: string }
    | { driver: 'node-postgres'; url: string }
    | { driver: 'vercel-postgres'; url: string };
  /** Connections of the main pool (lib/db/index.ts); the deadlines are lib/db/client.ts's constants. */
  databasePoolSize: number;
  solana: {
    rpcUrl: string | undefined;
    /** What browsers are given: a paid RPC URL with a key in it must not reach the page. */
    publicRpcUrl: string | undefined;
    cluster: Env['SOLANA_CLUSTER'];
    programId: string;
  };
  appUrl: URL;
  /** Host (with port) of APP_URL: the sign-in domain. */
  authDomain: string;
  /** Extra sign-in domains allowed through a matching `Origin`. */
  extraAuthDomains: string[];
  authSecret: string | undefined;
  cronSecret: string | undefined;
  /** The 64-byte secret key of the service identity (ACTION_IDENTITY_SECRET, or the localnet one). */
  actionIdentitySecret: Uint8Array;
  /** The ENS gateway (docs/integrators.md, "ENS"): its signing key and the parent name of the tags. */
  ens: EnsGatewayConfig;
  /**
   * The operator's bearer secret: when set, GET /api/metrics answers only with it; the
   * indexer status adds its private details (reasons, the last error) only with it.
   */
  metricsToken: string | undefined;
  /** Every rate-limit bucket's policy: lib/core/rate-limit-buckets.ts, with RATE_LIMITS on top. */
  rateLimits: RateLimitPolicies;
  /** Where the client address that rate limits key on comes from (lib/http/client-address.ts). */
  clientAddress: ClientAddressSource;
  indexerIntervalSeconds: number;
  webhookIntervalSeconds: number;
  /** How every built transaction prices its compute units (lib/chain/priority-fee.ts). */
  priorityFee: PriorityFeePolicy;
  /** Signatures per getSignaturesForAddress page. */
  indexerPageSize: number;
  /** Webhook delivery (lib/features/webhooks): what the routes and every delivery pass need. */
  webhooks: WebhookConfig;
  /** How long an issued payment reference stays open, in seconds. */
  paymentReferenceTtlSeconds: number;
  dataDir: string;
}

export interface EnsGatewayConfig {
  /** ENS_GATEWAY_SIGNER_KEY, or the public localnet key (on localnet only). */
  signerKey: `0x${string}`;
  /** ENS_PARENT_NAME, lower-case: a tag `alice` is `alice.<parentName>`. */
  parentName: string;
}

export interface WebhookConfig {
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS=1: http and non-public addresses allowed (tests, local development). */
  allowPrivateTargets: boolean;
}

export interface PriorityFeePolicy {
  /** Percentile (0–100) of the recent per-slot fees of the transaction's writable accounts. */
  percentile: number;
  /** Ceiling in micro-lamports per compute unit. */
  maxMicroLamports: number;
}

export type ClientAddressSource = { source: 'direct' } | { source: 'vercel' } | { source: 'proxy'; hops: number };

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
  if (e.NODE_ENV === 'production' && !e.AUTH_SECRET && e.VERCEL) {
    throw new ConfigError('Invalid configuration:\n  AUTH_SECRET: required in production');
  }
  // The embedded keys are public: on a real cluster they would let anyone sign as this service.
  // They exist on a local cluster only, in development as in production. Every problem with a
  // key is named at once, so one failed start lists them all.
  const keyProblems = [
    ...(e.SOLANA_CLUSTER !== 'localnet' && !e.ACTION_IDENTITY_SECRET
      ? [
          `ACTION_IDENTITY_SECRET: required ${e.NODE_ENV === 'production' ? 'in production ' : ''}on ${e.SOLANA_CLUSTER} (the embedded key is the localnet's, and public)`,
        ]
      : []),
    ...(e.SOLANA_CLUSTER !== 'localnet' && e.ACTION_IDENTITY_SECRET && isLocalActionIdentity(e.ACTION_IDENTITY_SECRET)
      ? [
          `ACTION_IDENTITY_SECRET: is the localnet's public key, written in the source: on ${e.SOLANA_CLUSTER} anyone could sign as this service. Generate a key of your own (solana-keygen new) and set it here`,
        ]
      : []),
    ...ensSignerKeyProblems(e),
  ];
  if (keyProblems.length)
    throw new ConfigError(`Invalid configuration:\n${keyProblems.map((l) => `  ${l}`).join('\n')}`);
  if (e.HEADERS_TIMEOUT_MS <= e.KEEP_ALIVE_TIMEOUT_MS) {
    throw new ConfigError(
      'Invalid configuration:\n  HEADERS_TIMEOUT_MS: must be above KEEP_ALIVE_TIMEOUT_MS (Node.js closes a reused connection otherwise)',
    );
  }
  const appUrl = new URL(e.APP_URL ?? `http://localhost:${e.PORT}`);
  const clientAddress = clientAddressSource(e);
  return {
    env: e.NODE_ENV,
    server: {
      port: e.PORT,
      host: e.HOST,
      localnetPort: e.LOCALNET_PORT,
      keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
      headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
    },
    heavyWork: {
      concurrency: e.HEAVY_WORK_CONCURRENCY,
      maxEventLoopUtilization: e.HEAVY_WORK_MAX_EVENT_LOOP_UTILIZATION,
      bytesPerSecond: e.HEAVY_WORK_BYTES_PER_SECOND || Infinity,
    },
    database: e.DATABASE_URL
      ? { driver: 'node-postgres', url: e.DATABASE_URL }
      : e.POSTGRES_URL
        ? { driver: 'vercel-postgres', url: e.POSTGRES_URL }
        : { driver: 'pglite', dataDir: `${e.DATA_DIR}/pglite` },
    databasePoolSize: e.DATABASE_POOL_SIZE,
    solana: {
      rpcUrl: e.SOLANA_RPC_URL,
      publicRpcUrl: e.SOLANA_PUBLIC_RPC_URL ?? e.SOLANA_RPC_URL,
      cluster: e.SOLANA_CLUSTER,
      programId: e.TAG_PROGRAM_ID,
    },
    appUrl,
    authDomain: appUrl.host,
    extraAuthDomains: e.AUTH_DOMAINS,
    authSecret: e.AUTH_SECRET,
    cronSecret: e.CRON_SECRET,
    actionIdentitySecret: secretKeyBytes(e.ACTION_IDENTITY_SECRET ?? LOCAL_ACTION_IDENTITY_SECRET)!,
    ens: {
      signerKey: (e.ENS_GATEWAY_SIGNER_KEY as `0x${string}` | undefined) ?? LOCAL_ENS_GATEWAY_SIGNER_KEY,
      parentName: e.ENS_PARENT_NAME,
    },
    metricsToken: e.METRICS_TOKEN,
    rateLimits: e.RATE_LIMITS,
    clientAddress,
    indexerIntervalSeconds: e.INDEXER_INTERVAL_SECONDS,
    webhookIntervalSeconds: e.WEBHOOK_INTERVAL_SECONDS,
    priorityFee: { percentile: e.PRIORITY_FEE_PERCENTILE, maxMicroLamports: e.PRIORITY_FEE_MAX_MICRO_LAMPORTS },
    indexerPageSize: e.INDEXER_PAGE_SIZE,
    webhooks: { allowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS === '1' },
    paymentReferenceTtlSeconds: e.PAYMENT_REFERENCE_TTL_SECONDS,
    dataDir: e.DATA_DIR,
  };
}

/** The ENS gateway's signer: the public localnet key signs on localnet only; every other cluster brings its own. */
function ensSignerKeyProblems(e: Env): string[] {
  if (e.SOLANA_CLUSTER === 'localnet') return [];
  if (!e.ENS_GATEWAY_SIGNER_KEY) return [`ENS_GATEWAY_SIGNER_KEY: required on ${e.SOLANA_CLUSTER}`];
  if (e.ENS_GATEWAY_SIGNER_KEY.toLowerCase() === LOCAL_ENS_GATEWAY_SIGNER_KEY)
    return [`ENS_GATEWAY_SIGNER_KEY: the localnet key is public and refused on ${e.SOLANA_CLUSTER}`];
  return [];
}

/**
 * Fails closed: a mode that cannot tell the client's address is refused at start-up rather
 * than letting clients choose theirs (Vercel's header exists only on Vercel; a hop count only
 * means something behind a proxy).
 */
function clientAddressSource(e: Env): ClientAddressSource {
  const mode = e.CLIENT_ADDRESS_SOURCE ?? (e.VERCEL ? 'vercel' : 'direct');
  const invalid = (line: string) => new ConfigError(`Invalid configuration:\n  ${line}`);
  if (mode === 'proxy') {
    if (e.TRUSTED_PROXY_HOPS === undefined) {
      throw invalid(
        'TRUSTED_PROXY_HOPS: required with CLIENT_ADDRESS_SOURCE=proxy (how many proxies append to x-forwarded-for)',
      );
    }
    return { source: 'proxy', hops: e.TRUSTED_PROXY_HOPS };
  }
  if (e.TRUSTED_PROXY_HOPS !== undefined) {
    throw invalid(`TRUSTED_PROXY_HOPS: applies only with CLIENT_ADDRESS_SOURCE=proxy (it is ${mode})`);
  }
  if (mode === 'vercel' && !e.VERCEL) {
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
