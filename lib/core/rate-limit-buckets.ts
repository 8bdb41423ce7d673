/**
 * Every rate-limit bucket, declared once: what it counts, how it is keyed, its policy and why.
 * The limiter (lib/http/rate-limit.ts) reads the policies, and the "Rate limits" table of
 * docs/configuration.md is generated from this object (`npm run config:readme`). A policy is GCRA
 * (lib/features/auth/rate-limit.ts): `limit` requests at once, then one more every `windowSeconds / limit`.
 *
 * The figures are constants, not settings: no deployment has needed others. RATE_LIMITS
 * (lib/core/config.ts) overrides them where a run must, in tests and benchmarks that send thousands
 * of requests from one address, or that need a small budget to reach the 429.
 */
export const RATE_LIMIT_BUCKETS = {
  auth: {
    per: 'address',
    limit: 30,
    windowSeconds: 60,
    counts: "`POST /v1/auth/challenge`, `POST /v1/auth/verify` and the pages' sign-in, together",
    why: 'one policy for challenge and verify (SPEC 8), so that nobody can force signature checks without bound (an instance verifies ≈ 770 a second); a person signs in a few times a day, and 30 at once leaves room for an office behind one address',
  },
  sync: {
    per: 'address',
    limit: 60,
    windowSeconds: 60,
    counts: '`POST /v1/sync`',
    why: 'each reads one transaction from the cluster (an RPC call); a wallet sends one after each transaction it signs',
  },
  register: {
    per: 'address',
    limit: 30,
    windowSeconds: 60,
    counts: '`POST /v1/register` and the register page',
    why: 'each builds a transaction with RPC calls (blockhash, fees); a person registers a handful of tags',
  },
  availability: {
    per: 'address',
    limit: 120,
    windowSeconds: 60,
    counts: '`GET /v1/availability/{tag}`',
    why: 'each may cost an RPC call; the register form checks live as a person types a tag',
  },
  primary: {
    per: 'address',
    limit: 30,
    windowSeconds: 60,
    counts: '`PUT /v1/primary`',
    why: 'a write to the mirror and the feed; a person changes their primary tag rarely',
  },
  avatar: {
    per: 'address',
    limit: 600,
    windowSeconds: 60,
    counts: '`GET /api/avatar/{tag}`',
    why: "each fetches the image from its host; every view of a /@tag page with an avatar loads one, and many viewers can share an address (a carrier's NAT)",
  },
  profile: {
    per: 'address',
    limit: 120,
    windowSeconds: 60,
    counts: '`PATCH /v1/identity/{tag}` and the settings form, together',
    why: 'each edit writes a feed event kept forever; per address four times the per-key budget, for several keys behind one address',
  },
  profileKey: {
    per: 'key',
    limit: 30,
    windowSeconds: 60,
    counts: 'the same writes as `profile`, per signed-in key',
    why: 'one key behind many addresses must not get many budgets; 30 edits a minute is more than a person types',
  },
  feed: {
    per: 'address',
    limit: 120,
    windowSeconds: 60,
    counts: '`GET /v1/events`',
    why: 'a page is up to 1 MiB (FEED_PAGE_MAX_BYTES): at most 120 MiB a minute to one address; a follower reads a page per poll',
  },
  batch: {
    per: 'address',
    limit: 120,
    windowSeconds: 60,
    counts: '`POST /v1/resolve` and `POST /v1/reverse`, together',
    why: 'up to 100 lookups each, so 12,000 lookups a minute to one address',
  },
  action: {
    per: 'address',
    limit: 30,
    windowSeconds: 60,
    counts: '`POST /api/actions/pay/{tag}`',
    why: 'each builds a transfer with RPC calls (blockhash, fees); a payer pays a few times',
  },
  actionMint: {
    per: 'address',
    limit: 60,
    windowSeconds: 60,
    counts:
      '`GET /api/actions/pay/{tag}` when it must read a mint the process has not kept (lib/chain/mint-account.ts)',
    why: 'a mint lookup is one RPC call (getAccountInfo); cached, it costs nothing and is not counted, so blink clients that unfurl the same tags never meet this limit',
  },
  status: {
    per: 'address',
    limit: 60,
    windowSeconds: 60,
    counts: '`GET /api/indexer/status`',
    why: 'five statements, and block times the first time a slot is seen (RPC); an operator or a dashboard polls it every few seconds at most',
  },
  payments: {
    per: 'address',
    limit: 60,
    windowSeconds: 60,
    counts: '`POST /v1/payments`, `GET /pay/{tag}` (the profile’s pay link) and the till’s charges',
    why: 'each keeps a row until its reference expires and a week after; the finding pass reads payout accounts, not references, so a flood costs rows, not look-ups; a till issues one per sale',
  },
  webhooks: {
    per: 'address',
    limit: 60,
    windowSeconds: 60,
    counts: '`/v1/webhooks` (every method)',
    why: 'creating one probes the target over the network; an owner holds at most 10 subscriptions',
  },
} as const satisfies Record<string, RateLimitBucketDeclaration>;

export interface RateLimitBucketDeclaration {
  /** What the counter is keyed by: the client address, or the signed-in caller's key. */
  per: 'address' | 'key';
  /** Requests allowed at once, and per window. */
  limit: number;
  windowSeconds: number;
  /** The routes and forms that spend this budget (docs/configuration.md's table). */
  counts: string;
  /** Why these figures. */
  why: string;
}

type Buckets = typeof RATE_LIMIT_BUCKETS;
export type RateLimitBucketName = keyof Buckets;
/** Buckets counted per client address. */
export type RateLimitBucket = {
  [K in RateLimitBucketName]: Buckets[K]['per'] extends 'address' ? K : never;
}[RateLimitBucketName];
/** Buckets counted per signed-in caller key, beside an address bucket. */
export type CallerRateLimitBucket = {
  [K in RateLimitBucketName]: Buckets[K]['per'] extends 'key' ? K : never;
}[RateLimitBucketName];

/** Every bucket's policy in force: the declarations, with RATE_LIMITS' overrides on top. */
export type RateLimitPolicies = Record<RateLimitBucketName, { limit: number; windowSeconds: number }>;

export const RATE_LIMIT_BUCKET_NAMES = Object.keys(RATE_LIMIT_BUCKETS) as RateLimitBucketName[];

export function isRateLimitBucketName(name: string): name is RateLimitBucketName {
  return Object.hasOwn(RATE_LIMIT_BUCKETS, name);
}

/**
 * RATE_LIMITS' text (`auth=5/3600,register=3`: bucket=limit[/windowSeconds], comma-separated)
 * over the declarations. Returns the policies, or the first problem as a sentence.
 */
export function rateLimitPolicies(text: string): RateLimitPolicies | string {
  const policies = Object.fromEntries(
    RATE_LIMIT_BUCKET_NAMES.map((name) => [
      name,
      { limit: RATE_LIMIT_BUCKETS[name].limit, windowSeconds: RATE_LIMIT_BUCKETS[name].windowSeconds },
    ]),
  ) as RateLimitPolicies;
  for (const entry of text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const match = /^([A-Za-z]+)=(\d+)(?:\/(\d+))?$/.exec(entry);
    if (!match) return `\`${entry}\` is not bucket=limit or bucket=limit/windowSeconds`;
    const [, name, limit, window] = match as unknown as [string, string, string, string | undefined];
    if (!isRateLimitBucketName(name)) return `no bucket \`${name}\` (buckets: ${RATE_LIMIT_BUCKET_NAMES.join(', ')})`;
    const policy = {
      limit: Number(limit),
      windowSeconds: window === undefined ? policies[name].windowSeconds : Number(window),
    };
    if (!(policy.limit > 0 && policy.windowSeconds > 0))
      return `\`${entry}\`: the limit and the window must be positive`;
    policies[name] = policy;
  }
  return policies;
}
