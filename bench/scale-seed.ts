// Seeds a migrated database with `identities` mirror rows and `events` change-feed events in
// PostgreSQL itself (INSERT … SELECT over generate_series), in the shapes production has: most
// owners with one tag, some with a few, a few with hundreds; most payout wallets the owner's
// own, some wallets shared by hundreds of tags; profiles partly filled; a few blocked tags;
// primary tags chosen by some owners of several; feed events from many transactions (an xid
// per batch, as the indexer and PATCH write them), registrations interleaved with updates
// that favour recent tags. Deterministic in the row number, so the 500-tag and the
// million-tag databases are one distribution at two sizes.
import pg from 'pg';

export interface ScaleShape {
  identities: number;
  /** A whole multiple of `identities`: each tag's registration, then updates between them. */
  events: number;
}

export interface SeedReport {
  seconds: { identities: number; events: number; indexes: number; vacuum: number; total: number };
  bytes: { identities: number; events: number };
}

/** Feed events per writing transaction (one xid): an indexer batch writes hundreds, a PATCH one. */
const EVENTS_PER_TRANSACTION = 250;
/** The tables seeded; their secondary indexes are dropped during the load and built after it. */
const SEEDED_TABLES = ['identities', 'identity_events', 'primary_tags'];
/** Two years of history, ending now. */
const HISTORY_MS = 2 * 365 * 24 * 3600 * 1000;

const WORDS = [
  'alice',
  'bob',
  'carol',
  'dave',
  'erin',
  'frank',
  'grace',
  'heidi',
  'ivan',
  'judy',
  'mallory',
  'niaj',
  'olivia',
  'peggy',
  'rupert',
  'sybil',
  'trent',
  'victor',
  'walter',
  'shop',
  'cafe',
  'studio',
  'dao',
  'labs',
];
const WORD_ARRAY = `(ARRAY[${WORDS.map((w) => `'${w}'`).join(',')}])`;

// SQL expressions over a row number, written out in place (PostgreSQL would call a function
// of ours once per row and value, which made the load many times slower).
/** Uniform in [0, 1) from a row number and a salt. */
const u = (n: string, salt: number) => `((hashint8((${n}) * 1000003 + ${salt}) & 2147483647)::float8 / 2147483648)`;
/** 32 characters of base58 from a number and a salt: md5's hex, its one non-base58 digit replaced. */
const hex = (k: string, salt: string) => `replace(md5('${salt}' || (${k})), '0', 'z')`;
/**
 * A 44-character base58 text that decodes to exactly 32 bytes (its leading digit is 1..16 of
 * 58), like a Solana address, from a number and its `hex`: what the routes accept and the
 * indexes hold.
 */
const addrOf = (k: string, h: string) =>
  `(substr('23456789ABCDEFGH', 1 + ((${k}) % 16)::int, 1) || ${h} || substr(${h}, 3, 11))`;
const addr = (k: string) => addrOf(k, hex(k, 'w'));
/** `alice1234`, `shop_999`: a word and the row number, unique and canonical. */
const tagOf = (n: string) =>
  `(${WORD_ARRAY}[1 + floor(${u(n, 1)} * ${WORDS.length})::int] || CASE WHEN (${n}) % 3 = 0 THEN '_' ELSE '' END || (${n}))`;
/** 62% of tags are their owner's only one; 35% belong to owners of about three; 3% to the few (one per 10,000 tags) with hundreds. */
const ownerNo = (n: string, total: string) => `CASE
    WHEN ${u(n, 2)} < 0.62 THEN (${n})
    WHEN ${u(n, 2)} < 0.97 THEN (${total}) + 1 + floor(${u(n, 3)} * greatest(1, (${total}) / 8))::bigint
    ELSE 3 * (${total}) + floor(${u(n, 4)} * greatest(1, (${total}) / 10000))::bigint
  END`;
/** 80% pay to the owner, 15% to a wallet of their own, 5% to one shared by about 250 tags. */
const walletNo = (n: string, owner: string, total: string) => `CASE
    WHEN ${u(n, 5)} < 0.80 THEN (${owner})
    WHEN ${u(n, 5)} < 0.95 THEN 5 * (${total}) + (${n})
    ELSE 6 * (${total}) + floor(${u(n, 6)} * greatest(1, (${total}) / 5000))::bigint
  END`;
const iso = (ts: string) => `to_char((${ts}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Every seeded row by its number, with its feed JSON; the load reads it twice, then drops it. */
const SEED_TABLE = 'scale_seed_rows';
const IDENTITY_COLUMNS =
  'tag, owner, wallet, pending_owner, pda, display_name, avatar, bio, preferred_token, verified, merchant, status, created_at, updated_at, signature, slot';

// $1 identities, $2 start of history, $3 time between two registrations. Each level computes
// what the next reads (OFFSET 0 keeps PostgreSQL from pasting an md5 into every use of it).
export const SEED_ROWS = `
CREATE UNLOGGED TABLE ${SEED_TABLE} AS
SELECT r.*, CASE WHEN r.status = 'active' THEN json_build_object(
         'tag', '@' || r.tag, 'owner', r.owner, 'wallet', r.wallet, 'displayName', r.display_name,
         'avatar', r.avatar, 'bio', r.bio, 'preferredToken', r.preferred_token, 'verified', r.verified,
         'merchant', r.merchant, 'createdAt', ${iso('r.created_at')}) END AS identity
FROM (
  SELECT n, ${tagOf('n')} AS tag,
         owner,
         CASE WHEN w = o THEN owner ELSE ${addr('w')} END AS wallet,
         CASE WHEN ${u('n', 7)} < 0.01 THEN ${addr('7 * $1 + n')} END AS pending_owner,
         pda,
         CASE WHEN ${u('n', 8)} < 0.7 THEN initcap(${WORD_ARRAY}[1 + (n % ${WORDS.length})::int]) || ' ' || n END AS display_name,
         CASE WHEN ${u('n', 9)} < 0.5 THEN 'https://cdn.example.com/avatars/' || n || '.png' END AS avatar,
         CASE WHEN ${u('n', 10)} < 0.4 THEN left('Builder, collector and occasional writer. Payments in USDC welcome; say hello first. ', 20 + (n % 70)::int) END AS bio,
         CASE WHEN ${u('n', 11)} < 0.3 THEN 'USDC' WHEN ${u('n', 11)} < 0.4 THEN 'SOL' END AS preferred_token,
         ${u('n', 12)} < 0.05 AS verified,
         ${u('n', 13)} < 0.03 AS merchant,
         CASE WHEN ${u('n', 14)} < 0.003 THEN 'blocked' ELSE 'active' END AS status,
         $2::timestamptz + (n - 1) * $3::interval AS created_at,
         now() AS updated_at,
         left(pda || reverse(owner) || owner, 88) AS signature,
         1000 + 3 * n AS slot
  FROM (
    SELECT n, o, w, ${addrOf('o', 'ho')} AS owner, ${addrOf('8 * $1 + n', 'hp')} AS pda
    FROM (
      SELECT n, o, ${walletNo('n', 'o', '$1')} AS w, ${hex('o', 'o')} AS ho, ${hex('n', 'p')} AS hp
      FROM (SELECT n, ${ownerNo('n', '$1')} AS o FROM generate_series(1, $1::bigint) AS n) AS s
      OFFSET 0
    ) AS s
    OFFSET 0
  ) AS s
) AS r`;

/**
 * Event g: every `ratio`-th is the registration of the next tag; the others update a tag
 * already registered, recent ones more often; a blocked tag's events are removals. Its xid is
 * that of the batch it falls in: $5 is the first of the transactions burnt for them.
 * $1 events, $2 ratio, $3 start of history, $4 time between two events, $5 first xid, $6 events per xid
 */
export const SEED_EVENTS = `
INSERT INTO identity_events (id, tag, type, identity, at, xid)
SELECT e.g, r.tag, CASE WHEN r.status = 'active' THEN 'upsert' ELSE 'remove' END, r.identity,
       $3::timestamptz + (e.g - 1) * $4::interval,
       ($5::bigint + (e.g - 1) / $6)::text::xid8
FROM (
  SELECT g, CASE WHEN (g - 1) % $2 = 0 THEN r ELSE r - floor(${u('g', 20)} ^ 2 * r)::bigint END AS n
  FROM (SELECT g, (g - 1) / $2 + 1 AS r FROM generate_series(1, $1::bigint) AS g) AS s
) AS e
JOIN ${SEED_TABLE} r ON r.n = e.n
ORDER BY e.g`;

/**
 * Commits `count` empty transactions that each take an xid (a procedure may COMMIT), so the
 * events can carry xids of transactions that really committed, all older than any reader's
 * snapshot: what the feed's visibility rule needs. Returns the first.
 */
async function burnTransactionIds(client: pg.Client, count: number): Promise<bigint> {
  await client.query(`CREATE PROCEDURE pg_temp.burn_xids(n int) LANGUAGE plpgsql AS $$
    BEGIN FOR i IN 1..n LOOP PERFORM pg_current_xact_id(); COMMIT; END LOOP; END $$`);
  const { rows } = await client.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid');
  await client.query('CALL pg_temp.burn_xids($1)', [count]);
  return BigInt(rows[0]!.xid) + 1n;
}

export async function seedScale(databaseUrl: string, shape: ScaleShape): Promise<SeedReport> {
  if (shape.events % shape.identities !== 0)
    throw new Error('seedScale: events must be a whole multiple of identities');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const t0 = performance.now();
  const since = (t: number) => (performance.now() - t) / 1000;
  try {
    await client.query(
      `SET maintenance_work_mem = '512MB'; SET work_mem = '512MB'; SET synchronous_commit = off; SET statement_timeout = 0`,
    );
    // Indexes are built once after the load (what a restore does), not row by row during it.
    const { rows: indexes } = await client.query<{ name: string; definition: string }>(
      `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
        WHERE schemaname = 'public' AND tablename = ANY($1)
          AND indexname NOT IN (SELECT conname FROM pg_constraint WHERE contype IN ('p', 'u'))`,
      [SEEDED_TABLES],
    );
    for (const index of indexes) await client.query(`DROP INDEX "${index.name}"`);

    const started = new Date(Date.now() - HISTORY_MS);
    const eventStepMs = HISTORY_MS / shape.events;
    const ratio = shape.events / shape.identities;
    let t = performance.now();
    await client.query(`DROP TABLE IF EXISTS ${SEED_TABLE}`);
    await client.query(SEED_ROWS, [
      shape.identities,
      started.toISOString(),
      `${(eventStepMs * ratio).toFixed(3)} milliseconds`,
    ]);
    await client.query(`INSERT INTO identities (${IDENTITY_COLUMNS}) SELECT ${IDENTITY_COLUMNS} FROM ${SEED_TABLE}`);
    // Some owners of several tags chose one as primary.
    await client.query(
      `INSERT INTO primary_tags (owner, tag, chosen_at)
       SELECT owner, max(tag), now() FROM identities WHERE status = 'active'
       GROUP BY owner HAVING count(*) > 1 AND abs(hashtext(owner)) % 10 < 3`,
    );
    const identitiesSeconds = since(t);
    t = performance.now();
    const firstXid = await burnTransactionIds(client, Math.ceil(shape.events / EVENTS_PER_TRANSACTION));
    await client.query(SEED_EVENTS, [
      shape.events,
      ratio,
      started.toISOString(),
      `${eventStepMs.toFixed(3)} milliseconds`,
      firstXid.toString(),
      EVENTS_PER_TRANSACTION,
    ]);
    await client.query(`SELECT setval(pg_get_serial_sequence('identity_events', 'id'), $1)`, [shape.events]);
    await client.query(`DROP TABLE ${SEED_TABLE}`);
    const eventsSeconds = since(t);
    t = performance.now();
    for (const index of indexes) await client.query(index.definition);
    const indexSeconds = since(t);
    // What autovacuum would have done by now on a database that grew this large: statistics
    // for the planner, and the visibility map (index-only scans, no hint-bit writes on reads).
    t = performance.now();
    await client.query(`VACUUM (ANALYZE) identities, identity_events, primary_tags`);
    // What a server sized for a million tags holds in its buffers after running a while: the
    // identities and primary tags with their indexes (the reads' working set, 0.7 GB of the
    // 1 GB). Loading five million events just before evicts them, and a read that finds its
    // page in the OS cache instead costs 2.5× at batch resolve: a cold start, not the data's size.
    // The events (2.5 GB) do not fit; the feed reads its two ends, which stay hot.
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_prewarm');
    await client.query(
      `SELECT pg_prewarm(c.oid) FROM pg_class c
        WHERE c.oid IN (SELECT unnest(ARRAY['identities'::regclass, 'primary_tags'::regclass])
                        UNION SELECT indexrelid FROM pg_index WHERE indrelid IN ('identities'::regclass, 'primary_tags'::regclass))`,
    );
    const vacuumSeconds = since(t);
    const { rows } = await client.query<{ identities: string; events: string }>(
      `SELECT pg_total_relation_size('identities') AS identities, pg_total_relation_size('identity_events') AS events`,
    );
    return {
      seconds: {
        identities: identitiesSeconds,
        events: eventsSeconds,
        indexes: indexSeconds,
        vacuum: vacuumSeconds,
        total: since(t0),
      },
      bytes: { identities: Number(rows[0]!.identities), events: Number(rows[0]!.events) },
    };
  } finally {
    await client.end();
  }
}
