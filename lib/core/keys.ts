import { z } from 'zod';
import { decodeSignature, isPublicKey } from './base58';

export * from './base58';

/** The one schema of a public key in a request: base58 text of exactly 32 bytes. */
export const PublicKeyString = z
  .string()
  .max(64)
  .refine(isPublicKey, { message: 'must be a base58 Solana public key' })
  .meta({ description: 'Base58 Solana public key', example: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin' });

/** The one schema of a transaction signature in a request: base58 text of exactly 64 bytes. */
export const Signature = z
  .string()
  .max(100)
  .refine((text) => decodeSignature(text) !== null, { message: 'must be a base58 transaction signature' })
  .meta({ description: 'Base58 transaction signature (64 bytes)' });
