import { createNoopSigner, type Address, type TransactionSigner } from '@solana/kit';

/**
 * Signers that never sign, one per address: what the generated builders take for the signing
 * accounts of a transaction the server builds and leaves unsigned. The same key in two roles
 * (an owner paying its own fee) gets the same signer, as a message holds one signer per address.
 */
export function noopSigners(): (address: Address) => TransactionSigner {
  const signers = new Map<Address, TransactionSigner>();
  return (address) => {
    let signer = signers.get(address);
    if (!signer) {
      signer = createNoopSigner(address);
      signers.set(address, signer);
    }
    return signer;
  };
}
