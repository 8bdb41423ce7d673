import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createAddressFromString, type Address } from '@ethereumjs/util';
import { createVM } from '@ethereumjs/vm';
import solc from 'solc';
import { bytesToHex, custom, encodeDeployData, hexToBytes, type Abi, type EIP1193RequestFn, type Hex } from 'viem';

/*
 * An Ethereum chain in this process for the ENS tests: @ethereumjs/vm's EVM behind the two
 * methods of EIP-1193 a viem client reads with (eth_chainId, eth_call), so that viem does what a
 * wallet does, OffchainLookup included. Contracts are compiled by solc-js here; nothing is
 * downloaded. The block time is the test's to set (the resolver checks an answer's expiry
 * against it).
 */

const CHAIN_ID = 31337;
const CALLER = createAddressFromString(`0x${'ca11e7'.padEnd(40, '0')}`);

export interface Compiled {
  abi: Abi;
  bytecode: Hex;
}

/** Compiles the one contract of a Solidity file beside this one. */
export function compileContract(file: string, contract: string): Compiled {
  const source = readFileSync(path.join(import.meta.dirname, file), 'utf8');
  const input = {
    language: 'Solidity',
    sources: { [file]: { content: source } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const built = output.contracts[file]![contract]!;
  return { abi: built.abi, bytecode: `0x${built.evm.bytecode.object}` };
}

export interface LocalEvm {
  /** What viem's `custom()` transport takes. */
  transport: ReturnType<typeof custom>;
  /** Deploys a compiled contract with its constructor's arguments; its address. */
  deploy(contract: Compiled, args: readonly unknown[]): Promise<Hex>;
  /** The block time calls run at (unix seconds); the clock's now by default. */
  setTime(seconds: bigint | undefined): void;
}

export async function localEvm(): Promise<LocalEvm> {
  const vm = await createVM();
  let fixedTime: bigint | undefined;
  const block = () => ({
    header: {
      number: 1n,
      coinbase: CALLER,
      timestamp: fixedTime ?? BigInt(Math.floor(Date.now() / 1000)),
      difficulty: 0n,
      prevRandao: new Uint8Array(32),
      gasLimit: 30_000_000n,
      baseFeePerGas: 0n,
      getBlobGasPrice: () => undefined,
    },
  });
  const run = (to: Address | undefined, data: Hex) =>
    vm.evm.runCall({ caller: CALLER, to, data: hexToBytes(data), gasLimit: 30_000_000n, block: block() });

  const request = (async ({ method, params }: { method: string; params?: unknown }) => {
    if (method === 'eth_chainId') return `0x${CHAIN_ID.toString(16)}`;
    if (method === 'eth_blockNumber') return '0x1';
    if (method !== 'eth_call') throw Object.assign(new Error(`${method} is not served`), { code: 4200 });
    const [call] = params as [{ to: Hex; data: Hex }];
    const { execResult } = await run(createAddressFromString(call.to), call.data ?? '0x');
    const returned = bytesToHex(execResult.returnValue);
    // what a node answers for a revert: code 3 and the revert data, which viem reads (OffchainLookup among them)
    if (execResult.exceptionError) throw { code: 3, message: 'execution reverted', data: returned };
    return returned;
  }) as EIP1193RequestFn;

  return {
    // a revert is an answer, not a failure to retry
    transport: custom({ request }, { retryCount: 0 }),
    async deploy(contract, args) {
      const data = encodeDeployData({ abi: contract.abi, bytecode: contract.bytecode, args });
      const { createdAddress, execResult } = await run(undefined, data);
      if (execResult.exceptionError || !createdAddress)
        throw new Error(`deployment failed: ${execResult.exceptionError?.error}`);
      return createdAddress.toString() as Hex;
    },
    setTime(seconds) {
      fixedTime = seconds;
    },
  };
}
