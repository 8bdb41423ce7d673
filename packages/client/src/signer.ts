import type { SolanaSignInInput } from '@solana/wallet-standard-features';
import {
  address,
  createSignableMessage,
  createSignerFromKeyPair,
  getTransactionDecoder,
  getTransactionEncoder,
  type Address,
  type MessagePartialSigner,
  type Transaction,
  type TransactionPartialSigner,
  type TransactionWithinSizeLimit,
  type TransactionWithLifetime,
} from '@solana/kit';

/** A transaction as the service builds it: a legacy message within the size limit, with its blockhash. */
export type BuiltKitTransaction = Transaction & TransactionWithinSizeLimit & TransactionWithLifetime;

/**
 * Whatever holds an ed25519 key: a kit signer (`kitSigner`, e.g. from `generateKeyPairSigner()`),
 * a WebCrypto key pair (`keyPairSigner`), or a wallet (`walletSigner`). `signIn`, when present
 * (a wallet's `solana:signIn`), is used for sign-in instead of `signMessage`, so the wallet
 * shows its own sign-in screen.
 */
export interface TagSigner {
  /** The signing key's address (base58). */
  readonly address: Address;
  signMessage(message: Uint8Array): Promise<Uint8Array>;
  /** Adds this key's signature; keeps the others already on it. */
  signTransaction(transaction: BuiltKitTransaction): Promise<BuiltKitTransaction>;
  signIn?(input: SolanaSignInInput): Promise<{ signedMessage: Uint8Array; signature: Uint8Array }>;
}

/** A kit signer that signs messages and transactions (a `KeyPairSigner` does both). */
export function kitSigner(signer: MessagePartialSigner & TransactionPartialSigner): TagSigner {
  return {
    address: signer.address,
    signMessage: async (message) => {
      const [signatures] = await signer.signMessages([createSignableMessage(message)]);
      return signatures![signer.address]!;
    },
    signTransaction: async (transaction) => {
      const [signatures] = await signer.signTransactions([transaction]);
      return { ...transaction, signatures: { ...transaction.signatures, ...signatures } };
    },
  };
}

/** A WebCrypto ed25519 key pair (`crypto.subtle.generateKey('Ed25519', …)`, or kit's `generateKeyPair()`). */
export async function keyPairSigner(keyPair: CryptoKeyPair): Promise<TagSigner> {
  return kitSigner(await createSignerFromKeyPair(keyPair));
}

/**
 * A wallet as most wallets can be held: its account's address and byte-level signing (what
 * wallet-standard's `solana:signMessage` / `solana:signTransaction` / `solana:signIn` take and
 * give). No secret key leaves the wallet.
 */
export interface WalletLike {
  /** The connected account's address, base58; `null` when none is connected. */
  address: string | null;
  signMessage?(message: Uint8Array): Promise<Uint8Array>;
  /** Signs a transaction's wire bytes and answers the signed wire bytes. */
  signTransaction?(transaction: Uint8Array): Promise<Uint8Array>;
  signIn?(input?: SolanaSignInInput): Promise<{ signedMessage: Uint8Array; signature: Uint8Array }>;
}

export function walletSigner(wallet: WalletLike): TagSigner {
  const { signMessage, signTransaction, signIn } = wallet;
  if (!wallet.address) throw new Error('The wallet is not connected.');
  if (!signMessage && !signIn) throw new Error('The wallet can neither sign messages nor sign in.');
  return {
    address: address(wallet.address),
    signMessage: async (message) => {
      if (!signMessage) throw new Error('The wallet cannot sign messages.');
      return signMessage(message);
    },
    signTransaction: async (transaction) => {
      if (!signTransaction) throw new Error('The wallet cannot sign transactions.');
      const wire = new Uint8Array(getTransactionEncoder().encode(transaction));
      const signed = getTransactionDecoder().decode(await signTransaction(wire));
      // The other signatures are over the message the service built: a wallet may only add its own.
      if (!sameBytes(signed.messageBytes, transaction.messageBytes))
        throw new Error('The wallet changed the transaction instead of signing it.');
      return { ...transaction, signatures: { ...transaction.signatures, ...signed.signatures } };
    },
    signIn: signIn ? (input) => signIn(input) : undefined,
  };
}

function sameBytes(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  return a.length === b.length && Array.prototype.every.call(a, (byte: number, i: number) => byte === b[i]);
}
