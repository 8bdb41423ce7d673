import type { AccountMeta, PublicKey } from '@solana/web3.js';

/*
 * An instruction's account list, one role a key: what the program may do with each account
 * (write it, require its signature) reads at a glance instead of as two booleans.
 */

/** Written, not signing (a record, a token account, a receiver). */
export const writable = (pubkey: PublicKey): AccountMeta => ({ pubkey, isSigner: false, isWritable: true });
/** Only read (a mint, a program, a reference key). */
export const readonly = (pubkey: PublicKey): AccountMeta => ({ pubkey, isSigner: false, isWritable: false });
/** Signs, not written (an owner authorizing). */
export const signer = (pubkey: PublicKey): AccountMeta => ({ pubkey, isSigner: true, isWritable: false });
/** Signs and is debited (a fee payer paying rent). */
export const writableSigner = (pubkey: PublicKey): AccountMeta => ({ pubkey, isSigner: true, isWritable: true });
