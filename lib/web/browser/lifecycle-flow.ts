import 'client-only';
/**
 * The tag lifecycle on the settings page: the shared transaction steps
 * (lib/web/browser/transaction-flow.ts) with the lifecycle's program errors read by code and its own
 * wording. Nothing here reaches the server.
 */
import {
  TAG_REGISTRY_ERROR__NEW_OWNER_IS_OWNER,
  TAG_REGISTRY_ERROR__NO_OFFER_TO_ACCEPT,
  TAG_REGISTRY_ERROR__NO_OFFER_TO_CANCEL,
  TAG_REGISTRY_ERROR__NOT_PENDING_OWNER,
  TAG_REGISTRY_ERROR__NOT_TAG_OWNER,
  TAG_REGISTRY_ERROR__TAG_RECORD_NOT_PROGRAM_OWNED,
} from '@/packages/tag-registry/src';
import type { FailureOptions } from './transaction-flow';

/** What each lifecycle action is called on its button and in its step list. */
export const LIFECYCLE_ACTIONS = {
  set_wallet: 'Change the payout wallet',
  offer_transfer: 'Offer the tag',
  cancel_transfer: 'Cancel the offer',
  accept_transfer: 'Accept the tag',
  release_tag: 'Release the tag',
} as const;
export type LifecycleKind = keyof typeof LIFECYCLE_ACTIONS;

/** The program's refusals, by code, as the flow's failure kinds (none of them a retry can fix). */
export const LIFECYCLE_FAILURES: FailureOptions = {
  programErrors: {
    [TAG_REGISTRY_ERROR__NOT_TAG_OWNER]: 'forbidden',
    [TAG_REGISTRY_ERROR__NOT_PENDING_OWNER]: 'forbidden',
    [TAG_REGISTRY_ERROR__NO_OFFER_TO_ACCEPT]: 'conflict',
    [TAG_REGISTRY_ERROR__NO_OFFER_TO_CANCEL]: 'conflict',
    [TAG_REGISTRY_ERROR__NEW_OWNER_IS_OWNER]: 'conflict',
    [TAG_REGISTRY_ERROR__TAG_RECORD_NOT_PROGRAM_OWNED]: 'not-found',
  },
  messages: {
    conflict: 'The tag changed in the meantime (the offer was taken back, accepted or replaced). Reload the page.',
    forbidden: 'The signed-in wallet may not do this for this tag (any more). Reload the page.',
    'not-found': 'This tag is no longer live: it was released, and rests for 30 days.',
  },
};

/**
 * Release asks for the tag typed out: the tag itself, any case, with or without one leading
 * `@`. Deliberately stricter than a tag path (no `%40`, no space after the `@`): this is a
 * confirmation, not a lookup.
 */
export function confirmsRelease(typed: string, tag: string): boolean {
  return typed.trim().replace(/^@/, '').toLowerCase() === tag;
}
