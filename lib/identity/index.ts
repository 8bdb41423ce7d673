/*
 * The identity domain (SPEC 2.1, 3.1, 4.3, 4.4): what the /v1 routes and the web pages use.
 * Server-only (it reaches the database); client components import `./schemas` directly.
 */
export { getIdentity, resolveIdentity, parseTagParam, tagNotFound } from './get-identity';
export { updateProfile, type UpdateProfileInput } from './update-profile';
export { findActiveIdentity, findIdentityRow, listIdentitiesByOwner } from './queries';
export { toIdentity, toResolvedIdentity } from './identity-response';
export { moderate, isModerationAction, MODERATION_ACTIONS, type ModerationAction, type ModeratedIdentity } from './moderation';
export {
  Identity,
  ResolvedIdentity,
  ProfilePatch,
  PROFILE_LIMITS,
  PREFERRED_TOKEN_SYMBOLS,
  EDITABLE_PROFILE_KEYS,
} from './schemas';
