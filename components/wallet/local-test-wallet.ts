'use client';

/**
 * The localnet's test wallet: a Wallet Standard wallet that lives in this browser, so a
 * newcomer can walk the whole journey with no extension. Its key is kept in localStorage
 * (reset forgets it), and it is funded by the localnet's airdrop the first time it connects.
 *
 * Loaded only by a dynamic import behind `cluster === 'localnet'` (WalletAdapterBridge.tsx), so
 * its code is a chunk of its own that a page on devnet, testnet or mainnet never loads.
 */
import { registerWallet } from '@wallet-standard/wallet';
import type { Wallet, WalletAccount } from '@wallet-standard/base';
import { Connection, Keypair, LAMPORTS_PER_SOL, VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import nacl from 'tweetnacl';

export const LOCAL_TEST_WALLET_NAME = 'Test wallet (this device)';
/** The first airdrop: enough for a few registrations and payments on the localnet. */
export const LOCAL_TEST_WALLET_FUNDING_SOL = 5;

const STORAGE_KEY = 'identity-tags:local-test-wallet';
const CHAINS = ['solana:localnet'] as const;
const FEATURES = ['solana:signMessage', 'solana:signTransaction'] as const;
const ICON: `data:image/svg+xml;base64,${string}` = `data:image/svg+xml;base64,${btoa(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#5b5bd6"/><path d="M9 11h14v12H9z" fill="none" stroke="#fff" stroke-width="2"/><path d="M9 15h14" stroke="#fff" stroke-width="2"/></svg>',
)}`;

type ChangeListener = (properties: { accounts?: readonly WalletAccount[] }) => void;

export interface LocalTestWallet {
  /** Its name in the wallet list. */
  readonly name: string;
  /** Forgets the key on this device (and disconnects): the next connect makes and funds a new one. */
  reset(): void;
}

function storedKeypair(): Keypair | null {
  const saved = localStorage.getItem(STORAGE_KEY);
  if (!saved) return null;
  try {
    return Keypair.fromSecretKey(bs58.decode(saved));
  } catch {
    return null; // a damaged entry: start over with a new key
  }
}

let registered: LocalTestWallet | undefined;

/** Registers the test wallet with the page's Wallet Standard registry, once; `rpcUrl` is the localnet's. */
export function registerLocalTestWallet(rpcUrl: string): LocalTestWallet {
  registered ??= register(rpcUrl);
  return registered;
}

function register(rpcUrl: string): LocalTestWallet {
  let keypair = storedKeypair();
  let connected: WalletAccount | null = null;
  let listeners: ChangeListener[] = [];
  const emit = () => listeners.slice().forEach((fn) => fn({ accounts: wallet.accounts }));

  const accountOf = (kp: Keypair): WalletAccount => ({
    address: kp.publicKey.toBase58(),
    publicKey: kp.publicKey.toBytes(),
    chains: CHAINS,
    features: FEATURES,
    label: LOCAL_TEST_WALLET_NAME,
    icon: ICON,
  });

  // A new key gets the localnet's airdrop before the first connect answers. A failed airdrop
  // does not stop the connect: /register's airdrop button is there to try again.
  async function newFundedKeypair(): Promise<Keypair> {
    const kp = Keypair.generate();
    localStorage.setItem(STORAGE_KEY, bs58.encode(kp.secretKey));
    try {
      const connection = new Connection(rpcUrl, 'confirmed');
      const latest = await connection.getLatestBlockhash('confirmed');
      const signature = await connection.requestAirdrop(kp.publicKey, LOCAL_TEST_WALLET_FUNDING_SOL * LAMPORTS_PER_SOL);
      await connection.confirmTransaction({ signature, ...latest }, 'confirmed');
    } catch (err) {
      console.warn(`test wallet: the airdrop failed: ${(err as Error).message}`);
    }
    return kp;
  }

  function signer(): Keypair {
    if (!keypair || !connected) throw new Error('The test wallet is not connected.');
    return keypair;
  }

  const wallet: Wallet = {
    version: '1.0.0',
    name: LOCAL_TEST_WALLET_NAME,
    icon: ICON,
    chains: CHAINS,
    get accounts() {
      return connected ? [connected] : [];
    },
    features: {
      'standard:connect': {
        version: '1.0.0',
        connect: async () => {
          keypair ??= await newFundedKeypair();
          if (!connected) {
            connected = accountOf(keypair);
            emit();
          }
          return { accounts: [connected] };
        },
      },
      'standard:disconnect': {
        version: '1.0.0',
        disconnect: async () => {
          connected = null;
          emit();
        },
      },
      'standard:events': {
        version: '1.0.0',
        on: (event: string, listener: ChangeListener) => {
          if (event !== 'change') return () => {};
          listeners.push(listener);
          return () => {
            listeners = listeners.filter((l) => l !== listener);
          };
        },
      },
      'solana:signMessage': {
        version: '1.0.0',
        signMessage: async (...inputs: { message: Uint8Array }[]) =>
          inputs.map(({ message }) => ({
            signedMessage: message,
            signature: nacl.sign.detached(message, signer().secretKey),
          })),
      },
      'solana:signTransaction': {
        version: '1.0.0',
        supportedTransactionVersions: ['legacy', 0],
        // Legacy and v0 wire transactions alike: VersionedTransaction reads both.
        signTransaction: async (...inputs: { transaction: Uint8Array }[]) =>
          inputs.map(({ transaction }) => {
            const tx = VersionedTransaction.deserialize(transaction);
            tx.sign([signer()]);
            return { signedTransaction: tx.serialize() };
          }),
      },
    },
  };

  registerWallet(wallet);
  return {
    name: LOCAL_TEST_WALLET_NAME,
    reset() {
      localStorage.removeItem(STORAGE_KEY);
      keypair = null;
      if (connected) {
        connected = null;
        emit();
      }
    },
  };
}
