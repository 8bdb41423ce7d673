import {
  SystemProgram,
  Transaction,
  TransactionInstruction,
  type Connection,
  type Keypair,
  type PublicKey,
} from '@solana/web3.js';
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '@/lib/features/payments/pay-asset';
import { associatedTokenAddress, ASSOCIATED_TOKEN_PROGRAM_ID } from '@/lib/chain/spl-token';

/*
 * An SPL mint on the localnet, made with the token program's own instructions: the transaction
 * creates the mint (the payer its authority), the payer's token account, and mints `amount`
 * to it. Signed by the payer and the mint's key.
 */

const MINT_SIZE = 82;

/** The unsigned transaction that creates `mint` with `decimals` and gives the payer `amount` atoms of it. */
export async function mintAndFund(
  connection: Connection,
  payer: Keypair,
  mint: PublicKey,
  decimals: number,
  amount: bigint,
): Promise<Transaction> {
  const rent = await connection.getMinimumBalanceForRentExemption(MINT_SIZE);
  const payerAta = associatedTokenAddress(payer.publicKey, mint, TOKEN_PROGRAM_ID);
  const initializeMint2 = Buffer.concat([Buffer.from([20, decimals]), payer.publicKey.toBuffer(), Buffer.from([0])]);
  const mintTo = Buffer.alloc(9);
  mintTo.writeUInt8(7, 0);
  mintTo.writeBigUInt64LE(amount, 1);
  return new Transaction().add(
    SystemProgram.createAccount({
      fromPubkey: payer.publicKey,
      newAccountPubkey: mint,
      lamports: rent,
      space: MINT_SIZE,
      programId: TOKEN_PROGRAM_ID,
    }),
    new TransactionInstruction({
      programId: TOKEN_PROGRAM_ID,
      keys: [{ pubkey: mint, isSigner: false, isWritable: true }],
      data: initializeMint2,
    }),
    new TransactionInstruction({
      programId: ASSOCIATED_TOKEN_PROGRAM_ID,
      keys: [
        { pubkey: payer.publicKey, isSigner: true, isWritable: true },
        { pubkey: payerAta, isSigner: false, isWritable: true },
        { pubkey: payer.publicKey, isSigner: false, isWritable: false },
        { pubkey: mint, isSigner: false, isWritable: false },
        { pubkey: SystemProgram.programId, isSigner: false, isWritable: false },
        { pubkey: TOKEN_PROGRAM_ID, isSigner: false, isWritable: false },
      ],
      data: Buffer.from([1]),
    }),
    new TransactionInstruction({
      programId: TOKEN_PROGRAM_ID,
      keys: [
        { pubkey: mint, isSigner: false, isWritable: true },
        { pubkey: payerAta, isSigner: false, isWritable: true },
        { pubkey: payer.publicKey, isSigner: true, isWritable: false },
      ],
      data: mintTo,
    }),
  );
}

/** Token-2022's `InitializePermanentDelegate` and `InitializeMint2` instructions, by their number in the program. */
const INITIALIZE_PERMANENT_DELEGATE = 35;
const INITIALIZE_MINT2 = 20;
/** A Token-2022 mint with one extension of 32 bytes: the 165 bytes of a token account, the account type, the extension's type and length, its value. */
const MINT_WITH_DELEGATE_SIZE = 165 + 1 + 4 + 32;

/**
 * The unsigned transaction that creates a Token-2022 `mint` whose permanent delegate is
 * `delegate` (who can move or burn anyone's tokens of it), the payer its mint authority.
 * Signed by the payer and the mint's key.
 */
export async function token2022MintWithPermanentDelegate(
  connection: Connection,
  payer: Keypair,
  mint: PublicKey,
  delegate: PublicKey,
  decimals: number,
): Promise<Transaction> {
  const rent = await connection.getMinimumBalanceForRentExemption(MINT_WITH_DELEGATE_SIZE);
  return new Transaction().add(
    SystemProgram.createAccount({
      fromPubkey: payer.publicKey,
      newAccountPubkey: mint,
      lamports: rent,
      space: MINT_WITH_DELEGATE_SIZE,
      programId: TOKEN_2022_PROGRAM_ID,
    }),
    new TransactionInstruction({
      programId: TOKEN_2022_PROGRAM_ID,
      keys: [{ pubkey: mint, isSigner: false, isWritable: true }],
      data: Buffer.concat([Buffer.from([INITIALIZE_PERMANENT_DELEGATE]), delegate.toBuffer()]),
    }),
    new TransactionInstruction({
      programId: TOKEN_2022_PROGRAM_ID,
      keys: [{ pubkey: mint, isSigner: false, isWritable: true }],
      data: Buffer.concat([Buffer.from([INITIALIZE_MINT2, decimals]), payer.publicKey.toBuffer(), Buffer.from([0])]),
    }),
  );
}
