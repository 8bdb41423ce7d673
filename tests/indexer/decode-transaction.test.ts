import bs58 from 'bs58';
import { Keypair, PublicKey, SystemProgram, Transaction, TransactionInstruction } from '@solana/web3.js';
import { address } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { decodeTransaction, type TransactionForIndexing } from '@/lib/features/indexer/decode-transaction';
import { REGISTER_TAG_DISCRIMINATOR } from '@/packages/tag-registry/src';
import {
  encodeRegisterTagData,
  registerTagInstruction,
  findTagRecordAddress,
} from '@/packages/tag-registry/src/web3js';
import { PROGRAM_ID } from '../support/chain';

/*
 * A register_tag reached through CPI cannot be produced on localnet (no proxy program is
 * deployed there), so the inner case is checked here on a getTransaction-shaped object built
 * by hand: a legacy message whose only top-level instruction calls a proxy program, and
 * `meta.innerInstructions` holding the register_tag the proxy made.
 */

const PROXY = Keypair.generate().publicKey;
const owner = Keypair.generate().publicKey;
const payer = Keypair.generate().publicKey;
const wallet = Keypair.generate().publicKey;
const BLOCKHASH = bs58.encode(Buffer.alloc(32, 7));

function response(
  instructions: TransactionInstruction[],
  inner: { index: number; instructions: { programId: PublicKey; keys: PublicKey[]; data: Uint8Array }[] }[] = [],
): TransactionForIndexing {
  const tx = new Transaction({ feePayer: payer, blockhash: BLOCKHASH, lastValidBlockHeight: 100 }).add(...instructions);
  const message = tx.compileMessage();
  const indexOf = (k: PublicKey) => {
    const i = message.accountKeys.findIndex((a) => a.equals(k));
    if (i < 0) throw new Error(`key ${k.toBase58()} not in the message`);
    return i;
  };
  return {
    slot: 42,
    blockTime: 1_700_000_000,
    transaction: {
      message: {
        accountKeys: message.accountKeys.map((key) => key.toBase58()),
        instructions: message.instructions.map(({ programIdIndex, accounts, data }) => ({
          programIdIndex,
          accounts,
          data,
        })),
      },
    },
    meta: {
      err: null,
      innerInstructions: inner.map((g) => ({
        index: g.index,
        instructions: g.instructions.map((ix) => ({
          programIdIndex: indexOf(ix.programId),
          accounts: ix.keys.map(indexOf),
          data: bs58.encode(ix.data),
        })),
      })),
      loadedAddresses: { writable: [], readonly: [] },
    },
  };
}

/** The record address of `tag`: what the indexer re-reads. */
const record = (tag: string) => findTagRecordAddress(tag, PROGRAM_ID)[0].toBase58();
const decode = (tx: TransactionForIndexing) => decodeTransaction(tx, address(PROGRAM_ID.toBase58()));

function proxyCall(tag: string): TransactionInstruction {
  const [pda] = findTagRecordAddress(tag, PROGRAM_ID);
  return new TransactionInstruction({
    programId: PROXY,
    keys: [
      { pubkey: pda, isSigner: false, isWritable: true },
      { pubkey: owner, isSigner: true, isWritable: false },
      { pubkey: payer, isSigner: true, isWritable: true },
      { pubkey: SystemProgram.programId, isSigner: false, isWritable: false },
      { pubkey: PROGRAM_ID, isSigner: false, isWritable: false },
      { pubkey: wallet, isSigner: true, isWritable: false },
    ],
    data: Buffer.from([1]),
  });
}

function innerRegister(tag: string, data: Uint8Array = encodeRegisterTagData(tag, wallet)) {
  const [pda] = findTagRecordAddress(tag, PROGRAM_ID);
  return { programId: PROGRAM_ID, keys: [pda, owner, payer, SystemProgram.programId, wallet], data };
}

describe('decodeTransaction', () => {
  it('finds a top-level register_tag and the record it touches', () => {
    const ix = registerTagInstruction({ programId: PROGRAM_ID, tag: 'alice', owner, wallet, feePayer: payer });
    expect(decode(response([ix]))).toEqual({ malformed: [], invokesProgram: true, touched: [record('alice')] });
  });

  it('finds a register_tag made through CPI (an inner instruction)', () => {
    const tx = response([proxyCall('bob')], [{ index: 0, instructions: [innerRegister('bob')] }]);
    expect(decode(tx)).toEqual({ malformed: [], invokesProgram: true, touched: [record('bob')] });
  });

  it('finds top-level and inner ones together, in execution order', () => {
    const direct = registerTagInstruction({ programId: PROGRAM_ID, tag: 'carol', owner, wallet, feePayer: payer });
    const tx = response([proxyCall('dave'), direct], [{ index: 0, instructions: [innerRegister('dave')] }]);
    expect(decode(tx).touched).toEqual([record('dave'), record('carol')]);
  });

  it('ignores the same bytes sent to another program', () => {
    const ix = registerTagInstruction({ programId: PROXY, tag: 'erin', owner, wallet, feePayer: payer });
    expect(decode(response([ix]))).toEqual({ malformed: [], invokesProgram: false, touched: [] });
  });

  it('another instruction of our program (another discriminator) touches its record and is not malformed', () => {
    const ix = registerTagInstruction({ programId: PROGRAM_ID, tag: 'frank', owner, wallet, feePayer: payer });
    ix.data = Buffer.from([9, 9, 9, 9, 9, 9, 9, 9, 1, 2, 3]);
    expect(decode(response([ix]))).toEqual({ malformed: [], invokesProgram: true, touched: [record('frank')] });
  });

  const invalidUtf8 = encodeRegisterTagData('gina', wallet);
  invalidUtf8[12] = 0xff;
  const MALFORMED: Record<string, [Uint8Array, string]> = {
    'truncated data': [
      Buffer.concat([Buffer.from(REGISTER_TAG_DISCRIMINATOR), Buffer.from([5, 0, 0, 0]), Buffer.from('gina')]),
      'undecodable arguments',
    ],
    'trailing bytes': [
      Buffer.concat([encodeRegisterTagData('gina', wallet), Buffer.from([0])]),
      'undecodable arguments',
    ],
    'a non-canonical tag': [encodeRegisterTagData('Gina!', wallet), 'a tag outside the rules'],
    'invalid UTF-8': [invalidUtf8, 'undecodable arguments'],
  };
  for (const [name, [data, why]] of Object.entries(MALFORMED)) {
    it(`reports malformed register_tag data, where and why: ${name}`, () => {
      const tx = response([proxyCall('gina')], [{ index: 0, instructions: [innerRegister('gina', data)] }]);
      expect(decode(tx)).toEqual({
        malformed: [`malformed register_tag (inner 0.0: ${why})`],
        invokesProgram: true,
        touched: [record('gina')],
      });
    });
  }

  it('keeps the good instructions of a transaction beside a malformed one', () => {
    const tx = response(
      [
        proxyCall('hank'),
        registerTagInstruction({ programId: PROGRAM_ID, tag: 'ivan', owner, wallet, feePayer: payer }),
      ],
      [{ index: 0, instructions: [innerRegister('hank', REGISTER_TAG_DISCRIMINATOR)] }],
    );
    expect(decode(tx)).toEqual({
      malformed: ['malformed register_tag (inner 0.0: undecodable arguments)'],
      invokesProgram: true,
      touched: [record('hank'), record('ivan')],
    });
  });
});
