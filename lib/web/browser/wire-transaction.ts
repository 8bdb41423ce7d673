import 'client-only';
/**
 * The unsigned transactions the builders answer (base64 wire format), for the wallet to sign.
 * web3.js v1, because wallet-adapter signs its classes: imported only by the wallet's lazily
 * loaded code (components/wallet/WalletAdapterBridge.tsx), which hands `WIRE_TRANSACTIONS`
 * to the pages with the wallet's state.
 */
import { Transaction, VersionedTransaction, type PublicKey } from '@solana/web3.js';

export type WireTransaction = Transaction | VersionedTransaction;

function base64ToBytes(text: string): Uint8Array {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** A legacy transaction as web3.js's `Transaction` (its serialize checks every signature), v0 as `VersionedTransaction`. */
export function decodeWireTransaction(base64: string): WireTransaction {
  const bytes = base64ToBytes(base64);
  const versioned = VersionedTransaction.deserialize(bytes);
  return versioned.version === 'legacy' ? Transaction.from(bytes) : versioned;
}

export function blockhashOf(tx: WireTransaction): string {
  const blockhash = tx instanceof Transaction ? tx.recentBlockhash : tx.message.recentBlockhash;
  if (!blockhash) throw new Error('The built transaction has no recent blockhash.');
  return blockhash;
}

/**
 * The signed transaction's wire bytes. A legacy one is checked by web3.js (a missing or wrong
 * signature throws); a v0 one must at least carry every signature it needs.
 */
export function signedWireBytes(tx: WireTransaction): Uint8Array {
  if (tx instanceof Transaction) return tx.serialize();
  if (tx.signatures.some((s) => s.every((b) => b === 0)))
    throw new Error('The wallet left a required signature empty.');
  return tx.serialize();
}

/** The keys that must sign `tx` and have not yet (a built transaction may need the owner, a sponsor and a payout wallet). */
export function unsignedSigners(tx: WireTransaction): string[] {
  if (tx instanceof Transaction) return tx.signatures.filter((s) => !s.signature).map((s) => s.publicKey.toBase58());
  const keys = tx.message.staticAccountKeys.slice(0, tx.message.header.numRequiredSignatures);
  return keys.filter((_, i) => tx.signatures[i]!.every((b) => b === 0)).map((k) => k.toBase58());
}

/**
 * Copies `key`'s signature from what a wallet returned into `into`, keeping the signatures
 * `into` already holds: a transaction is signed by one connected account after the other
 * (the owner, then the payout wallet, or the reverse), whatever each wallet keeps.
 */
export function keepSignature(into: WireTransaction, signed: WireTransaction, key: PublicKey): void {
  if (into instanceof Transaction && signed instanceof Transaction) {
    const signature = signed.signatures.find((s) => s.publicKey.equals(key))?.signature;
    if (!signature) throw new Error('The wallet did not sign the transaction.');
    into.addSignature(key, signature);
    return;
  }
  if (!(into instanceof VersionedTransaction) || !(signed instanceof VersionedTransaction))
    throw new Error('The wallet changed the transaction.');
  const index = into.message.staticAccountKeys.findIndex((k) => k.equals(key));
  const signature = signed.signatures[index];
  if (index < 0 || !signature || signature.every((b) => b === 0))
    throw new Error('The wallet did not sign the transaction.');
  into.signatures[index] = signature;
}

/** What the pages use of this file, through the wallet's state (components/wallet/site-wallet-context.ts). */
export const WIRE_TRANSACTIONS = {
  decodeWireTransaction,
  signedWireBytes,
  unsignedSigners,
  keepSignature,
};
export type WireTransactions = typeof WIRE_TRANSACTIONS;
