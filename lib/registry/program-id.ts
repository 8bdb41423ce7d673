/**
 * The tag registry's fixed address on localnet and in the program tests (and the default of
 * `TAG_PROGRAM_ID`). It is the address of program/localnet-program-keypair.json, a keypair
 * committed on purpose: public, for localnet and tests only, where the program is deployed
 * through loader-v3 transactions that need it to sign. Never deploy to a real cluster with it.
 */
export const LOCALNET_PROGRAM_ID = 'F9pvtJFDm5kh8TyAUbAY2p6UiEKy4nwL6hLcJWV4i3nP';
