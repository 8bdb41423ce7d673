import { expect } from 'vitest';
import { appUrl } from '../identity/helpers';

export {
  appUrl,
  closeTestDb,
  expectedIdentity,
  get,
  patchIdentity,
  readRow,
  seedIdentity,
  testDb,
} from '../identity/helpers';

/** These suites run against the built app: without one they fail, never skip. */
export function requireApp(): void {
  expect(appUrl, 'no production build: run `npm run build` (NEXT_DIST_DIR) first').not.toBe('');
}

/** The /@tag page's HTML (following nothing: a cached page answers as it is). */
export async function viewProfile(tagPath: string): Promise<{ status: number; html: string; headers: Headers }> {
  const res = await fetch(`${appUrl}/${tagPath}`, { redirect: 'manual' });
  return { status: res.status, html: await res.text(), headers: res.headers };
}
