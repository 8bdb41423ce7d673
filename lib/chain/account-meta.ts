import { AccountRole, type AccountMeta, type Address } from '@solana/kit';

/*
 * An instruction's account list, one role a key: what the program may do with each account
 * (write it, require its signature) reads at a glance, as kit's AccountRole names it.
 */

/** Written, not signing (a record, a token account, a receiver). */
export const writable = (address: Address): AccountMeta => ({ address, role: AccountRole.WRITABLE });
/** Only read (a mint, a program, a reference key). */
export const readonly = (address: Address): AccountMeta => ({ address, role: AccountRole.READONLY });
/** Signs, not written (an owner authorizing). */
export const signer = (address: Address): AccountMeta => ({ address, role: AccountRole.READONLY_SIGNER });
/** Signs and is debited (a fee payer paying rent). */
export const writableSigner = (address: Address): AccountMeta => ({ address, role: AccountRole.WRITABLE_SIGNER });
