import { getBase64Encoder, type Address, type Base64EncodedDataResponse } from '@solana/kit';

/** An account as the checks of lib/chain judge it: its owning program and its data. */
export interface AccountBytes {
  owner: Address;
  data: Uint8Array;
}

/** An account as kit's RPC answers it with `encoding: 'base64'`. */
export interface Base64Account {
  owner: Address;
  data: Base64EncodedDataResponse;
}

/** The account's data as bytes (null stays null: no account at that address). */
export function accountBytesOf(account: Base64Account | null): AccountBytes | null {
  if (!account) return null;
  return { owner: account.owner, data: new Uint8Array(getBase64Encoder().encode(account.data[0])) };
}
