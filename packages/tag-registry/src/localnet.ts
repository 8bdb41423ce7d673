import { TAG_REGISTRY_PROGRAM_ADDRESS } from './generated';

/**
 * The tag registry's fixed address on localnet and in the program tests (and the default of
 * `TAG_PROGRAM_ID`): the IDL's `address`, which is the address of
 * program/localnet-program-keypair.json, a keypair committed on purpose: public, for localnet
 * and tests only, where the program is deployed through loader-v3 transactions that need it
 * to sign. Never deploy to a real cluster with it. Picked so the tags the tests and
 * benchmarks use most ("alice", "bob", "carol", "dave", "erin", "frank", a 32-byte tag) have
 * PDA bump 255: one `sol_try_find_program_address` attempt, so compute-unit figures compare
 * across ids.
 */
export const LOCALNET_PROGRAM_ID: string = TAG_REGISTRY_PROGRAM_ADDRESS;
