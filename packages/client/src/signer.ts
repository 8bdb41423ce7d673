import type { SolanaSignInInput } from '@solana/wallet-standard-features';
import { Keypair, PublicKey, Transaction } from '@solana/web3.js';
import nacl from 'tweetnacl';

/**
 * Whatever holds an ed25519 key: a wallet (through `walletSigner`) or a Keypair (through
 * `keypairSigner`). `signIn`, when present (a wallet's `solana:signIn`), is used for sign-in
 * instead of `signMessage`, so the wallet shows its own sign-in screen.
 */
export interface TagSigner {
  /** The public key, base58. */
  readonly publicKey: string;
  signMessage(message: Uint8Array): Promise<Uint8Array>;
  /** Adds this key's signature; keeps the others already on it. */
  signTransaction(transaction: Transaction): Promise<Transaction>;
  signIn?(input: SolanaSignInInput): Promise<{ signedMessage: Uint8Array; signature: Uint8Array }>;
}

export function keypairSigner(keypair: Keypair): TagSigner {
  return {
    publicKey: keypair.publicKey.toBase58(),
    signMessage: async (message) => nacl.sign.detached(message, keypair.secretKey),
    signTransaction: async (transaction) => {
      transaction.partialSign(keypair);
      return transaction;
    },
  };
}

/** The shape wallet-adapter's `useWallet()` gives (and most wallet objects): no secret key leaves the wallet. */
export interface WalletLike {
  publicKey: PublicKey | null;
  signMessage?(message: Uint8Array): Promise<Uint8Array>;
  signTransaction?<T extends Transaction>(transaction: T): Promise<T>;
  signIn?(input?: SolanaSignInInput): Promise<{ signedMessage: Uint8Array; signature: Uint8Array }>;
}

export function walletSigner(wallet: WalletLike): TagSigner {
  const { publicKey, signMessage, signTransaction, signIn } = wallet;
  if (!publicKey) throw new Error('The wallet is not connected.');
  if (!signMessage && !signIn) throw new Error('The wallet can neither sign messages nor sign in.');
  return {
    publicKey: publicKey.toBase58(),
    signMessage: async (message) => {
      if (!signMessage) throw new Error('The wallet cannot sign messages.');
      return signMessage(message);
    },
    signTransaction: async (transaction) => {
      if (!signTransaction) throw new Error('The wallet cannot sign transactions.');
      return signTransaction(transaction);
    },
    signIn: signIn ? (input) => signIn(input) : undefined,
  };
}
