// GET/POST /api/auth/* — next-auth: wallet sign-in for the pages (/v1 uses bearer JWTs)
import NextAuth from 'next-auth';
import type { NextRequest } from 'next/server';
import { getAuthOptions } from '@/lib/auth/next-auth-options';

type Context = { params: Promise<{ nextauth: string[] }> };

function handler(req: NextRequest, ctx: Context): Promise<Response> {
  return NextAuth(getAuthOptions())(req, ctx);
}

export { handler as GET, handler as POST };
