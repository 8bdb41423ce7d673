// What POST /v1/auth/challenge and /v1/auth/verify share (SPEC 8): one rate-limit policy, and
// each request counted in the statement that stores or consumes its nonce (one round trip).
export const SIGN_IN_STEP = { tags: ['auth'], rateLimit: 'auth' as const, countsRequest: true as const };
