export {
  createTagClient,
  type TagClient,
  type TagClientOptions,
  type RegisterOptions,
  type ProfilePatch,
} from './client';
export { TagServiceError } from './errors';
export { FeedFollower, applyEvent, type Replica, type IdentityEvent, type Identity, type FollowOptions } from './feed';
export { createTagApi, type TagApi } from './http';
export { signIn, type Session } from './sign-in';
export { keyPairSigner, kitSigner, walletSigner, type TagSigner, type WalletLike } from './signer';
export { signSendAndSync, type Landed, type SendOptions, type BuiltTransaction } from './transactions';
export { verifyWebhook, DeliveryDeduplicator, WebhookVerificationError } from './webhooks';
export type { paths, components } from './schema';
// The program's error codes, generated from its IDL, and the matcher that finds one in a failure.
export { hasTagRegistryError, tagRegistryErrorOf, type TagRegistryError } from '../../tag-registry/src';
export * from '../../tag-registry/src/generated/errors';
