import bs58 from 'bs58';
import {
  AccountRole,
  appendTransactionMessageInstructions,
  compileTransactionMessage,
  createNoopSigner,
  createTransactionMessage,
  generateKeyPairSigner,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Address,
  type Blockhash,
  type Instruction,
} from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { decodeTransaction, type TransactionForIndexing } from '@/lib/features/indexer/decode-transaction';
import {
  getRegisterTagInstruction,
  getRegisterTagInstructionDataEncoder,
  REGISTER_TAG_DISCRIMINATOR,
} from '@/packages/tag-registry/src';
import { PROGRAM_ADDRESS, recordAddress as record } from '../support/chain';

/*
 * A register_tag reached through CPI cannot be produced on localnet (no proxy program is
 * deployed there), so the inner case is checked here on a getTransaction-shaped object built
 * by hand: a legacy message whose only top-level instruction calls a proxy program, and
 * `meta.innerInstructions` holding the register_tag the proxy made.
 */

const newAddress = async () => (await generateKeyPairSigner()).address;
const PROXY = await newAddress();
const owner = await newAddress();
const payer = await newAddress();
const wallet = await newAddress();
const SYSTEM_PROGRAM = '11111111111111111111111111111111' as Address;
const BLOCKHASH = bs58.encode(Buffer.alloc(32, 7)) as Blockhash;

/** register_tag's data, as the generated encoder writes it. */
const registerTagData = (tag: string, walletArg: Address = wallet) =>
  new Uint8Array(getRegisterTagInstructionDataEncoder().encode({ tag, wallet: walletArg }));

function response(
  instructions: Instruction[],
  inner: { index: number; instructions: { programAddress: Address; keys: Address[]; data: Uint8Array }[] }[] = [],
): TransactionForIndexing {
  const message = compileTransactionMessage(
    pipe(
      createTransactionMessage({ version: 'legacy' }),
      (m) => setTransactionMessageFeePayer(payer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: BLOCKHASH, lastValidBlockHeight: 100n }, m),
      (m) => appendTransactionMessageInstructions(instructions, m),
    ),
  );
  const indexOf = (key: Address) => {
    const i = message.staticAccounts.indexOf(key);
    if (i < 0) throw new Error(`key ${key} not in the message`);
    return i;
  };
  return {
    slot: 42,
    blockTime: 1_700_000_000,
    transaction: {
      message: {
        accountKeys: message.staticAccounts,
        instructions: message.instructions.map((ix) => ({
          programIdIndex: ix.programAddressIndex,
          accounts: ix.accountIndices ?? [],
          data: bs58.encode(new Uint8Array(ix.data ?? [])),
        })),
      },
    },
    meta: {
      err: null,
      innerInstructions: inner.map((g) => ({
        index: g.index,
        instructions: g.instructions.map((ix) => ({
          programIdIndex: indexOf(ix.programAddress),
          accounts: ix.keys.map(indexOf),
          data: bs58.encode(ix.data),
        })),
      })),
      loadedAddresses: { writable: [], readonly: [] },
    },
  };
}

const decode = (tx: TransactionForIndexing) => decodeTransaction(tx, PROGRAM_ADDRESS);

/** A register_tag of `programAddress` (ours unless given), owner and payer apart. */
async function registerTag(tag: string, programAddress: Address = PROGRAM_ADDRESS): Promise<Instruction> {
  return getRegisterTagInstruction(
    {
      tagRecord: await record(tag),
      owner: createNoopSigner(owner),
      feePayer: createNoopSigner(payer),
      wallet: createNoopSigner(wallet),
      tag,
      walletArg: wallet,
    },
    { programAddress },
  );
}

async function proxyCall(tag: string): Promise<Instruction> {
  return {
    programAddress: PROXY,
    accounts: [
      { address: await record(tag), role: AccountRole.WRITABLE },
      { address: owner, role: AccountRole.READONLY_SIGNER },
      { address: payer, role: AccountRole.WRITABLE_SIGNER },
      { address: SYSTEM_PROGRAM, role: AccountRole.READONLY },
      { address: PROGRAM_ADDRESS, role: AccountRole.READONLY },
      { address: wallet, role: AccountRole.READONLY_SIGNER },
    ],
    data: new Uint8Array([1]),
  };
}

async function innerRegister(tag: string, data: Uint8Array = registerTagData(tag)) {
  return { programAddress: PROGRAM_ADDRESS, keys: [await record(tag), owner, payer, SYSTEM_PROGRAM, wallet], data };
}

describe('decodeTransaction', () => {
  it('finds a top-level register_tag and the record it touches', async () => {
    const ix = await registerTag('alice');
    expect(decode(response([ix]))).toEqual({ malformed: [], invokesProgram: true, touched: [await record('alice')] });
  });

  it('finds a register_tag made through CPI (an inner instruction)', async () => {
    const tx = response([await proxyCall('bob')], [{ index: 0, instructions: [await innerRegister('bob')] }]);
    expect(decode(tx)).toEqual({ malformed: [], invokesProgram: true, touched: [await record('bob')] });
  });

  it('finds top-level and inner ones together, in execution order', async () => {
    const direct = await registerTag('carol');
    const tx = response([await proxyCall('dave'), direct], [{ index: 0, instructions: [await innerRegister('dave')] }]);
    expect(decode(tx).touched).toEqual([await record('dave'), await record('carol')]);
  });

  it('ignores the same bytes sent to another program', async () => {
    const ix = await registerTag('erin', PROXY);
    expect(decode(response([ix]))).toEqual({ malformed: [], invokesProgram: false, touched: [] });
  });

  it('another instruction of our program (another discriminator) touches its record and is not malformed', async () => {
    const ix = { ...(await registerTag('frank')), data: new Uint8Array([9, 9, 9, 9, 9, 9, 9, 9, 1, 2, 3]) };
    expect(decode(response([ix]))).toEqual({ malformed: [], invokesProgram: true, touched: [await record('frank')] });
  });

  const invalidUtf8 = registerTagData('gina');
  invalidUtf8[12] = 0xff;
  const MALFORMED: Record<string, [Uint8Array, string]> = {
    'truncated data': [
      Buffer.concat([Buffer.from(REGISTER_TAG_DISCRIMINATOR), Buffer.from([5, 0, 0, 0]), Buffer.from('gina')]),
      'undecodable arguments',
    ],
    'trailing bytes': [Buffer.concat([registerTagData('gina'), Buffer.from([0])]), 'undecodable arguments'],
    'a non-canonical tag': [registerTagData('Gina!'), 'a tag outside the rules'],
    'invalid UTF-8': [invalidUtf8, 'undecodable arguments'],
  };
  for (const [name, [data, why]] of Object.entries(MALFORMED)) {
    it(`reports malformed register_tag data, where and why: ${name}`, async () => {
      const tx = response([await proxyCall('gina')], [{ index: 0, instructions: [await innerRegister('gina', data)] }]);
      expect(decode(tx)).toEqual({
        malformed: [`malformed register_tag (inner 0.0: ${why})`],
        invokesProgram: true,
        touched: [await record('gina')],
      });
    });
  }

  it('keeps the good instructions of a transaction beside a malformed one', async () => {
    const tx = response(
      [await proxyCall('hank'), await registerTag('ivan')],
      [{ index: 0, instructions: [await innerRegister('hank', REGISTER_TAG_DISCRIMINATOR)] }],
    );
    expect(decode(tx)).toEqual({
      malformed: ['malformed register_tag (inner 0.0: undecodable arguments)'],
      invokesProgram: true,
      touched: [await record('hank'), await record('ivan')],
    });
  });
});
