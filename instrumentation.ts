// Runs once when a Next.js server starts: an invalid configuration stops start-up here,
// with a message naming the variable, instead of failing on the first request.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs') await import('./lib/core/check-config-at-start');
}
