import { z } from 'zod';
import { PublicKeyString } from '@/lib/core/keys';

export const ChallengeRequest = z
  .object({ pubkey: z.string().max(64).meta(PublicKeyString.meta()!) })
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
