/**
 * The site's actions.json (Solana Actions spec): a blink client that meets `/@alice` (or the
 * internal `/profile/alice` it is rewritten to) fetches the Action at `/api/actions/pay/@alice`.
 *
 * A `*` stands for one whole path segment (blinks-core's mapper turns `/*` into `/([^/]+)` and
 * leaves any other `*` as a regular expression's), so `/@*` never matches `/@alice`: the last
 * rule takes any one-segment path, `@alice` included, and the pay Action accepts `@alice` as a
 * tag. A one-segment page that is not a profile (`/register`) maps to an Action that answers
 * 404, and a blink client then shows no blink. Rules are tried in order: the Action URLs map to
 * themselves first, as the spec recommends.
 */
export const ACTIONS_JSON = {
  rules: [
    { pathPattern: '/api/actions/**', apiPath: '/api/actions/**' },
    { pathPattern: '/profile/*', apiPath: '/api/actions/pay/*' },
    { pathPattern: '/*', apiPath: '/api/actions/pay/*' },
  ],
} as const;
