import 'client-only';
/**
 * What registering adds to the shared transaction steps (lib/web/browser/transaction-flow.ts): its
 * labels, and what a lost race for the tag means. The program's AlreadyRegistered (matched by
 * code) and the build's 409 both say someone else has the tag now.
 */
import { TAG_REGISTRY_ERROR__ALREADY_REGISTERED } from '@/packages/tag-registry/src';
import { DEFAULT_STEP_LABELS, type FailureOptions, type FlowStep } from './transaction-flow';

export const REGISTER_STEP_LABELS: Readonly<Record<FlowStep, string>> = {
  ...DEFAULT_STEP_LABELS,
  indexing: 'Indexing your profile',
};

export const TAG_TAKEN_MESSAGE = 'Someone registered this tag in the meantime. Choose another one.';

export const REGISTER_FAILURES: FailureOptions = {
  programErrors: { [TAG_REGISTRY_ERROR__ALREADY_REGISTERED]: 'conflict' },
  messages: {
    conflict: TAG_TAKEN_MESSAGE,
    'index-pending': 'The transaction landed but is not final yet, so the profile is not indexed. Retry in a moment.',
  },
};
