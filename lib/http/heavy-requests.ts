/*
 * The heavy requests, one table for the door and the routes (issue 42): `npm start`'s server sheds
 * them by method and path before Next.js sees them (./shed-at-the-door.ts), and the routes name
 * their kind from here when they bound their work (./heavy-work.ts; a /v1 operation's `heavy`).
 * tests/api/shed-at-the-door.test.ts checks the table against the /v1 operations' declarations both
 * ways; the lint rule house/heavy-work-is-at-the-door (scripts/lint/house-rules.mjs) holds every
 * route's heavy work to it.
 */

export const HEAVY_REQUESTS = [
  { kind: 'feed', methods: ['GET', 'HEAD'], path: '/v1/events' },
  { kind: 'og image', methods: ['GET', 'HEAD'], path: '/profile/{tag}/opengraph-image' },
  { kind: 'resolve batch', methods: ['POST'], path: '/v1/resolve' },
  { kind: 'reverse batch', methods: ['POST'], path: '/v1/reverse' },
] as const;

export type HeavyKind = (typeof HEAVY_REQUESTS)[number]['kind'];

/** Each path as a pattern: `{name}` is one segment; a trailing slash is the same path. */
const PATTERNS = HEAVY_REQUESTS.map((heavy) => ({
  ...heavy,
  pattern: new RegExp(`^${heavy.path.replace(/\{\w+\}/g, '[^/]+')}/?$`),
}));

/**
 * The kind of heavy work a request is, or null for any other request. The path is compared
 * decoded (`/v1/%65vents` is the feed); the door has already refused the forms that decode to
 * another path (a dot segment, an encoded slash: ./request-target.ts).
 */
export function heavyRequestKind(method: string | undefined, target: string | undefined): HeavyKind | null {
  if (!method || !target) return null;
  let path: string;
  try {
    path = decodeURIComponent(target.split(/[?#]/, 1)[0]!);
  } catch {
    return null; // an invalid escape: 400 before any route (proxy.ts)
  }
  return PATTERNS.find((h) => (h.methods as readonly string[]).includes(method) && h.pattern.test(path))?.kind ?? null;
}
