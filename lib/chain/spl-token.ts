import { PublicKey, SystemProgram, TransactionInstruction } from '@solana/web3.js';
import { readonly, signer, writable, writableSigner } from './account-meta';

/*
 * The two SPL instructions a token payment needs, encoded as the programs define them (no
 * SPL library: two instructions do not justify one), for either token program.
 */

export const TOKEN_PROGRAM_ID = new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
export const TOKEN_2022_PROGRAM_ID = new PublicKey('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb');
export const ASSOCIATED_TOKEN_PROGRAM_ID = new PublicKey('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL');

/** Associated Token Account program `CreateIdempotent`. */
const CREATE_IDEMPOTENT = 1;
/** SPL Token `TransferChecked` (both token programs). */
const TRANSFER_CHECKED = 12;

/** The token account of `owner` for `mint` that wallets look up by default. */
export function associatedTokenAddress(owner: PublicKey, mint: PublicKey, tokenProgram: PublicKey): PublicKey {
  return PublicKey.findProgramAddressSync(
    [owner.toBuffer(), tokenProgram.toBuffer(), mint.toBuffer()],
    ASSOCIATED_TOKEN_PROGRAM_ID,
  )[0];
}

/** Creates `owner`'s associated token account for `mint` unless it exists; `funder` pays the rent. */
export function createAssociatedTokenAccountIdempotent(a: {
  funder: PublicKey;
  owner: PublicKey;
  mint: PublicKey;
  tokenProgram: PublicKey;
}): TransactionInstruction {
  const account = associatedTokenAddress(a.owner, a.mint, a.tokenProgram);
  return new TransactionInstruction({
    programId: ASSOCIATED_TOKEN_PROGRAM_ID,
    // funder, the account to create, its owner, the mint, System Program, token program
    keys: [
      writableSigner(a.funder),
      writable(account),
      readonly(a.owner),
      readonly(a.mint),
      readonly(SystemProgram.programId),
      readonly(a.tokenProgram),
    ],
    data: Buffer.from([CREATE_IDEMPOTENT]),
  });
}

/** `TransferChecked`: `amount` base units from `source` to `destination`, signed by `authority`; the mint's decimals are checked. */
export function transferCheckedInstruction(a: {
  source: PublicKey;
  mint: PublicKey;
  destination: PublicKey;
  authority: PublicKey;
  amount: bigint;
  decimals: number;
  tokenProgram: PublicKey;
}): TransactionInstruction {
  const data = Buffer.alloc(10);
  data.writeUInt8(TRANSFER_CHECKED, 0);
  data.writeBigUInt64LE(a.amount, 1);
  data.writeUInt8(a.decimals, 9);
  return new TransactionInstruction({
    programId: a.tokenProgram,
    keys: [writable(a.source), readonly(a.mint), writable(a.destination), signer(a.authority)],
    data,
  });
}
