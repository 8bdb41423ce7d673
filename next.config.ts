import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { NextConfig } from 'next';
import { browserBuildRules } from './lib/web/browser-build-rules';
import { SERVER_ACTION_BODY_LIMIT_BYTES } from './lib/web/shared/request-limits';
import { baseSecurityHeaders, NON_DOCUMENT_CSP } from './lib/web/server/security-headers';

// Read when the build runs (next.config is evaluated then): HSTS follows the APP_URL of the
// build. Pages get theirs again at run time with their CSP (lib/web/server/security-headers.ts).
const appUrl = new URL(process.env.APP_URL || 'http://localhost:3000');
const toList = (headers: Record<string, string>) => Object.entries(headers).map(([key, value]) => ({ key, value }));

// The stylesheet and the /@tag script (public/) are linked with `?v=` this hash of their
// content, taken at build time (lib/web/server/profile-document.ts): a new version is a new URL, so
// a versioned URL is cached for good.
const PUBLIC_ASSETS = ['public/site.css', 'public/profile.js'];
const assetsVersion = createHash('sha256')
  .update(PUBLIC_ASSETS.map((file) => readFileSync(file)).join('\0'))
  .digest('base64url')
  .slice(0, 12);

const nextConfig: NextConfig = {
  // Lets parallel builds (a benchmark beside a test run) use separate output folders.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // Native or WASM packages that must load from node_modules at run time, not be bundled.
  serverExternalPackages: ['@electric-sql/pglite', 'pg'],
  poweredByHeader: false,
  // Next.js compresses (gzip) under `npm start` and a bare `next start` alike; on Vercel the CDN does.
  compress: true,
  env: { PUBLIC_ASSETS_VERSION: assetsVersion },
  reactStrictMode: true,
  // `npm test` type-checks the whole project itself, beside the build, with TypeScript 7's compiler
  // (scripts/test.sh); every other build (`npm start`, Vercel) type-checks here as well.
  typescript: { ignoreBuildErrors: process.env.TYPECHECKED_BESIDE_THE_BUILD === '1' },
  // Node.js built-ins stay out of the browser's bundle: a client component reaching one fails
  // the build (lib/web/browser-build-rules.ts).
  turbopack: { rules: browserBuildRules(__dirname) },
  experimental: {
    // Fitting the largest form; proxy.ts answers a plain-text 413 above it, which the form
    // shows (lib/web/shared/request-limits.ts).
    serverActions: { bodySizeLimit: SERVER_ACTION_BODY_LIMIT_BYTES },
    // Bodies of requests proxy.ts sees are copied up to this size (server actions, paths with
    // a percent sign): every route behind it reads at most 16 KB anyway.
    proxyClientMaxBodySize: '64kb',
  },
  // Every response: no framing, no sniffing, a strict referrer, HSTS over https. API answers
  // also get a CSP that allows nothing; pages get theirs from proxy.ts (a nonce) or from the
  // /@tag handler (lib/web/server/security-headers.ts).
  async headers() {
    return [
      { source: '/:path*', headers: toList(baseSecurityHeaders({ appUrl })) },
      { source: '/v1/:path*', headers: toList({ 'Content-Security-Policy': NON_DOCUMENT_CSP }) },
      { source: '/api/:path*', headers: toList({ 'Content-Security-Policy': NON_DOCUMENT_CSP }) },
      ...PUBLIC_ASSETS.map((file) => ({
        source: file.slice('public'.length),
        has: [{ type: 'query' as const, key: 'v', value: assetsVersion }],
        headers: toList({ 'Cache-Control': 'public, max-age=31536000, immutable' }),
      })),
    ];
  },
};

export default nextConfig;
