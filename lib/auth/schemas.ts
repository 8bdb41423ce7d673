import { z } from 'zod';

const PUBKEY = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

export const ChallengeRequest = z
  .object({ pubkey: z.string().max(64).meta({ description: 'Base58 Solana public key', example: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin' }) })
  .meta({ id: 'ChallengeRequest' });

export const ChallengeResponse = z
  .object({ message: z.string().meta({ description: 'The sign-in message (SPEC 2.2), to sign as UTF-8 bytes' }) })
  .meta({ id: 'ChallengeResponse' });

export const VerifyRequest = z
  .object({
    pubkey: z.string(),
    message: z.string().meta({ description: 'The challenge message exactly as issued' }),
    signature: z.string().meta({ description: 'ed25519 signature of the message: base58 (or base64)' }),
  })
  .meta({ id: 'VerifyRequest' });

export const VerifyResponse = z
  .object({ token: z.string().meta({ description: 'Session JWT (HS256, 1 hour, sub = public key)' }) })
  .meta({ id: 'VerifyResponse' });

export const PUBLIC_KEY_PATTERN = PUBKEY;
