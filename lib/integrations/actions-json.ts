/**
 * The site's actions.json (Solana Actions spec): a blink client that meets `/@alice` (or the
 * internal `/profile/alice` it is rewritten to) fetches the Action at `/api/actions/pay/alice`.
 * The last rule maps the Action URLs to themselves, as the spec recommends.
 */
export const ACTIONS_JSON = {
  rules: [
    { pathPattern: '/@*', apiPath: '/api/actions/pay/*' },
    { pathPattern: '/profile/*', apiPath: '/api/actions/pay/*' },
    { pathPattern: '/api/actions/**', apiPath: '/api/actions/**' },
  ],
} as const;
