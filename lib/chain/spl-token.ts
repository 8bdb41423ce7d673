import { address, createNoopSigner, type Address, type Instruction } from '@solana/kit';
import {
  ASSOCIATED_TOKEN_PROGRAM_ADDRESS,
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';

/*
 * The two SPL instructions a token payment needs, for either token program, from the
 * generated token client. The service never signs: the funder and the authority are no-op
 * signers, so each stands in the instruction as the signing account it is.
 */

export const TOKEN_PROGRAM_ID: Address = TOKEN_PROGRAM_ADDRESS;
export const TOKEN_2022_PROGRAM_ID: Address = address('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb');
export const ASSOCIATED_TOKEN_PROGRAM_ID: Address = ASSOCIATED_TOKEN_PROGRAM_ADDRESS;

/** The token account of `owner` for `mint` that wallets look up by default. */
export async function associatedTokenAddress(owner: Address, mint: Address, tokenProgram: Address): Promise<Address> {
  const [account] = await findAssociatedTokenPda({ owner, mint, tokenProgram });
  return account;
}

/** Creates `owner`'s associated token account for `mint` unless it exists; `funder` pays the rent. */
export async function createAssociatedTokenAccountIdempotent(a: {
  funder: Address;
  owner: Address;
  mint: Address;
  tokenProgram: Address;
}): Promise<Instruction> {
  return getCreateAssociatedTokenIdempotentInstruction({
    payer: createNoopSigner(a.funder),
    ata: await associatedTokenAddress(a.owner, a.mint, a.tokenProgram),
    owner: a.owner,
    mint: a.mint,
    tokenProgram: a.tokenProgram,
  });
}

/** `TransferChecked`: `amount` base units from `source` to `destination`, signed by `authority`; the mint's decimals are checked. */
export function transferCheckedInstruction(a: {
  source: Address;
  mint: Address;
  destination: Address;
  authority: Address;
  amount: bigint;
  decimals: number;
  tokenProgram: Address;
}): Instruction {
  return getTransferCheckedInstruction(
    {
      source: a.source,
      mint: a.mint,
      destination: a.destination,
      authority: createNoopSigner(a.authority),
      amount: a.amount,
      decimals: a.decimals,
    },
    { programAddress: a.tokenProgram },
  );
}
