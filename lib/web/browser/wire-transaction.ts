import 'client-only';
/** The unsigned transactions the builders answer (base64 wire format), for the wallet to sign. */
import { Transaction, VersionedTransaction } from '@solana/web3.js';

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
  if (tx.signatures.some((s) => s.every((b) => b === 0))) throw new Error('The wallet left a required signature empty.');
  return tx.serialize();
}
