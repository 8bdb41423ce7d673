import type { NextConfig } from 'next';
import { PROFILE_REWRITE } from './lib/web/profile-path';
import { SERVER_ACTION_BODY_LIMIT_BYTES } from './lib/web/request-limits';
import { baseSecurityHeaders, NON_DOCUMENT_CSP } from './lib/web/security-headers';

// Read when the build runs (next.config is evaluated then): HSTS follows the APP_URL of the
// build. Pages get theirs again at run time with their CSP (lib/web/security-headers.ts).
const appUrl = new URL(process.env.APP_URL || 'http://localhost:3000');
const toList = (headers: Record<string, string>) => Object.entries(headers).map(([key, value]) => ({ key, value }));

const nextConfig: NextConfig = {
  // Lets parallel builds (a benchmark beside a test run) use separate output folders.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // Native or WASM packages that must load from node_modules at run time, not be bundled.
  serverExternalPackages: ['@electric-sql/pglite', 'pg'],
  poweredByHeader: false,
  // scripts/serve.ts compresses (pages once per distinct page, not once per view); on Vercel
  // the CDN does.
  compress: false,
  reactStrictMode: true,
  experimental: {
    // Fitting the largest form; proxy.ts answers a plain-text 413 above it, which the form
    // shows (lib/web/request-limits.ts).
    serverActions: { bodySizeLimit: SERVER_ACTION_BODY_LIMIT_BYTES },
    // Bodies of requests proxy.ts sees are copied up to this size (server actions, paths with
    // a percent sign): every route behind it reads at most 16 KB anyway.
    proxyClientMaxBodySize: '64kb',
  },
  // `/@alice` cannot be an App Router folder (a leading @ names a parallel-route slot).
  async rewrites() {
    return [PROFILE_REWRITE];
  },
  // Every response: no framing, no sniffing, a strict referrer, HSTS over https. API answers
  // also get a CSP that allows nothing; pages get theirs, with their scripts' hashes, from
  // scripts/serve.ts or proxy.ts (lib/web/security-headers.ts).
  async headers() {
    return [
      { source: '/:path*', headers: toList(baseSecurityHeaders({ appUrl })) },
      { source: '/v1/:path*', headers: toList({ 'Content-Security-Policy': NON_DOCUMENT_CSP }) },
      { source: '/api/:path*', headers: toList({ 'Content-Security-Policy': NON_DOCUMENT_CSP }) },
    ];
  },
};

export default nextConfig;
