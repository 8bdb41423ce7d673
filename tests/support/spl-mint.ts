import {
  AccountRole,
  generateKeyPairSigner,
  getAddressEncoder,
  type Address,
  type Instruction,
  type KeyPairSigner,
} from '@solana/kit';
import { getCreateAccountInstruction } from '@solana-program/system';
import {
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeMint2Instruction,
  getMintToInstruction,
} from '@solana-program/token';
import type { SolanaRpc } from '@/lib/chain/rpc';
import { associatedTokenAddress, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '@/lib/chain/spl-token';
import { sendSigned, reachAll } from './chain';

/*
 * An SPL mint on the localnet, made with the token program's own instructions: the transaction
 * creates the mint (the payer its authority), the payer's token account, and mints `amount`
 * to it. Signed by the payer and the mint's key (both carried by the instructions).
 */

const MINT_SIZE = 82n;

/** The instructions that create `mint` with `decimals` and give the payer `amount` atoms of it. */
export async function mintAndFund(
  rpc: SolanaRpc,
  payer: KeyPairSigner,
  mint: KeyPairSigner,
  decimals: number,
  amount: bigint,
): Promise<Instruction[]> {
  const rent = await rpc.getMinimumBalanceForRentExemption(MINT_SIZE).send();
  const payerAta = await associatedTokenAddress(payer.address, mint.address, TOKEN_PROGRAM_ID);
  return [
    getCreateAccountInstruction({
      payer,
      newAccount: mint,
      lamports: rent,
      space: MINT_SIZE,
      programAddress: TOKEN_PROGRAM_ID,
    }),
    getInitializeMint2Instruction({ mint: mint.address, decimals, mintAuthority: payer.address }),
    getCreateAssociatedTokenIdempotentInstruction({ payer, ata: payerAta, owner: payer.address, mint: mint.address }),
    getMintToInstruction({ mint: mint.address, token: payerAta, mintAuthority: payer, amount }),
  ];
}

/** Token-2022's `InitializePermanentDelegate` and `InitializeMint2` instructions, by their number in the program. */
const INITIALIZE_PERMANENT_DELEGATE = 35;
/** A Token-2022 mint with one extension of 32 bytes: the 165 bytes of a token account, the account type, the extension's type and length, its value. */
const MINT_WITH_DELEGATE_SIZE = 165n + 1n + 4n + 32n;

/**
 * The instructions that create a Token-2022 `mint` whose permanent delegate is `delegate` (who
 * can move or burn anyone's tokens of it), the payer its mint authority. The generated token
 * client knows no extension, so the delegate's instruction is written here.
 */
export async function token2022MintWithPermanentDelegate(
  rpc: SolanaRpc,
  payer: KeyPairSigner,
  mint: KeyPairSigner,
  delegate: Address,
  decimals: number,
): Promise<Instruction[]> {
  const rent = await rpc.getMinimumBalanceForRentExemption(MINT_WITH_DELEGATE_SIZE).send();
  return [
    getCreateAccountInstruction({
      payer,
      newAccount: mint,
      lamports: rent,
      space: MINT_WITH_DELEGATE_SIZE,
      programAddress: TOKEN_2022_PROGRAM_ID,
    }),
    {
      programAddress: TOKEN_2022_PROGRAM_ID,
      accounts: [{ address: mint.address, role: AccountRole.WRITABLE }],
      data: new Uint8Array([INITIALIZE_PERMANENT_DELEGATE, ...getAddressEncoder().encode(delegate)]),
    },
    getInitializeMint2Instruction(
      { mint: mint.address, decimals, mintAuthority: payer.address },
      { programAddress: TOKEN_2022_PROGRAM_ID },
    ),
  ];
}

/** A new mint of the SPL Token program, `amount` atoms of it held by `payer`'s associated account; confirmed. */
export async function landedMint(
  rpc: SolanaRpc,
  payer: KeyPairSigner,
  decimals: number,
  amount: bigint,
): Promise<Address> {
  const mint = await generateKeyPairSigner();
  const signature = await sendSigned(rpc, await mintAndFund(rpc, payer, mint, decimals, amount), payer);
  await reachAll(rpc, [signature], 'confirmed', 30_000, { refuseFailed: true });
  return mint.address;
}
