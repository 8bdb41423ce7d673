import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // Lets parallel builds (a benchmark beside a test run) use separate output folders.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // Native or WASM packages that must load from node_modules at run time, not be bundled.
  serverExternalPackages: ['@electric-sql/pglite', 'pg'],
  poweredByHeader: false,
  // `npm test` type-checks the whole project (app, lib, tests, program) with `tsc` first.
  typescript: { ignoreBuildErrors: true },
  reactStrictMode: true,
  // `/@alice` cannot be an App Router folder (a leading @ names a parallel-route slot).
  async rewrites() {
    return [{ source: '/@:tag', destination: '/profile/:tag' }];
  },
};

export default nextConfig;
