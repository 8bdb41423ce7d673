// GET/POST /api/auth/* — next-auth: wallet sign-in for the pages (/v1 uses bearer JWTs)
import NextAuth from 'next-auth';
import { NextRequest } from 'next/server';
import { errorResponse } from '@/lib/http/error-response';
import { otherMethods } from '@/lib/http/other-methods';
import { readBody } from '@/lib/http/read-json';
import { observeRequest } from '@/lib/observability/observe-request';
import { getAuthOptions } from '@/lib/web/server/next-auth-options';
import { AUTH_BODY_LIMIT_BYTES } from '@/lib/web/shared/request-limits';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ nextauth: string[] }> };

/** What metrics and logs name every path of the catch-all. */
const ROUTE = '/api/auth/{nextauth}';

/*
 * next-auth reads the whole body before its CSRF check, unauthenticated. Its forms (CSRF
 * token, public key, a sign-in message, a signature) fit in a few KB: the body is read here
 * first, at most AUTH_BODY_LIMIT_BYTES (413 in the envelope beyond, streaming stopped), and
 * next-auth gets that copy.
 */

function handler(req: NextRequest, ctx: Context): Promise<Response> {
  return observeRequest(req, ROUTE, () => answer(req, ctx));
}

async function answer(req: NextRequest, ctx: Context): Promise<Response> {
  let bounded = req;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    try {
      const body = await readBody(req, AUTH_BODY_LIMIT_BYTES);
      bounded = new NextRequest(req.url, { method: req.method, headers: req.headers, body });
    } catch (err) {
      return errorResponse(err);
    }
  }
  return NextAuth(getAuthOptions())(bounded, ctx);
}

export { handler as GET, handler as POST };
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(ROUTE, ['GET', 'POST']);
