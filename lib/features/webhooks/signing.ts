import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/*
 * Standard Webhooks signing (DESIGN.md "Webhooks"), through its own library: `webhook-id`,
 * `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of
 * `id.timestamp.body`, keyed by the secret's bytes).
 */

/** A new signing secret: `whsec_` and 32 random bytes in base64, as the spec writes them. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The headers of one delivery. While a rotated-out secret is still honoured, the signature
 * header carries a signature under each (space-separated), so a receiver that has not switched
 * yet keeps verifying.
 */
export function signedHeaders(secrets: readonly string[], id: string, at: Date, body: string): Record<string, string> {
  const signatures = secrets.map((secret) => new Webhook(secret).sign(id, at, body));
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
