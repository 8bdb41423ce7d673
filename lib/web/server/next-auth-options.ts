import 'server-only';
import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { toAppError } from '@/lib/core/errors';
import { rateLimitTicket } from '@/lib/http/rate-limit';
import { getServices } from '@/lib/http/services';
import { resolveAuthSecret } from '@/lib/features/auth/secret';
import { SESSION_TTL_SECONDS } from '@/lib/features/auth/session-token';
import { verifySignIn } from '@/lib/features/auth/verify-sign-in';
import { getConfig } from '@/lib/core/config';
import { SIGN_IN_RATE_LIMITED, SIGN_IN_UNAVAILABLE } from '@/lib/web/shared/sign-in-errors';

declare module 'next-auth' {
  interface Session {
    /** The signed-in public key (base58): the only identity a web session carries. */
    pubkey: string;
  }
}

let cached: NextAuthOptions | undefined;

/**
 * next-auth for the pages (DESIGN.md "Web"): one Credentials provider, `solana`, whose
 * `authorize` is POST /v1/auth/verify's path — the same nonce store, the same
 * `verifySignIn`, the same rate-limit bucket. Its session is next-auth's encrypted JWT
 * cookie, not the /v1 bearer token, and lasts as long as one.
 *
 * Built on first use, not at import, so `next build` needs no secret.
 */
export function getAuthOptions(): NextAuthOptions {
  if (cached) return cached;
  const config = getConfig();
  // next-auth v4 takes its own origin (redirect URLs) from NEXTAUTH_URL only; ours is APP_URL.
  process.env.NEXTAUTH_URL ??= config.appUrl.origin;
  cached = {
    secret: resolveAuthSecret(config),
    useSecureCookies: config.appUrl.protocol === 'https:',
    session: { strategy: 'jwt', maxAge: SESSION_TTL_SECONDS },
    jwt: { maxAge: SESSION_TTL_SECONDS },
    providers: [
      CredentialsProvider({
        id: 'solana',
        name: 'Solana wallet',
        credentials: {
          pubkey: { label: 'Public key', type: 'text' },
          message: { label: 'Sign-in message', type: 'text' },
          signature: { label: 'Signature', type: 'text' },
        },
        async authorize(credentials, req) {
          const attempt = {
            pubkey: String(credentials?.pubkey ?? ''),
            message: String(credentials?.message ?? ''),
            signature: String(credentials?.signature ?? ''),
          };
          try {
            const services = await getServices();
            const { authDb, config } = services;
            // The same entry point, bucket and statement as /v1/auth/verify: one budget.
            const headers = new Headers(req.headers as Record<string, string> | undefined);
            const ticket = rateLimitTicket(services, 'auth', headers, new Date());
            const { pubkey } = await verifySignIn(
              authDb,
              attempt,
              [config.authDomain, ...config.extraAuthDomains],
              ticket,
            );
            return { id: pubkey };
          } catch (err) {
            const known = toAppError(err);
            if (known.code === 'rate_limited') throw new Error(SIGN_IN_RATE_LIMITED);
            if (known.code === 'unauthorized') return null; // the one answer to every failure, as /v1/auth/verify's 401
            throw new Error(SIGN_IN_UNAVAILABLE);
          }
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user) token.sub = user.id;
        return token;
      },
      session({ session, token }) {
        return { expires: session.expires, pubkey: token.sub ?? '' };
      },
    },
  };
  return cached;
}
