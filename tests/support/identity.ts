/**
 * SPEC 2.1's fields of an identity, in the SPEC's order (and `nostr`, DESIGN.md "Reach beyond
 * Solana clients"): exactly the keys an identity answer has. Stated here, not taken from lib/, for the reason NO_PROFILE gives.
 */
export const IDENTITY_FIELDS = [
  'tag',
  'owner',
  'wallet',
  'displayName',
  'avatar',
  'bio',
  'preferredToken',
  'nostr',
  'verified',
  'merchant',
  'createdAt',
] as const;

/** SPEC 2.1's profile fields as an identity with no profile shows them: each null. */
const EMPTY_PROFILE = { displayName: null, avatar: null, bio: null, preferredToken: null, nostr: null } as const;

/**
 * The SPEC 2.1 fields of an identity with no profile and no moderation flag: what a newly
 * registered tag shows beside its tag, owner, wallet and createdAt. Stated here, not taken
 * from lib/, so the tests check the code against the SPEC rather than against itself.
 */
export const NO_PROFILE = { ...EMPTY_PROFILE, verified: false, merchant: false } as const;
