import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

/**
 * How long a test's own resource lives: `all`, from before the first test of the describe (or
 * file) it is declared in to after the last; `each`, around every test of it.
 */
export type Lifetime = 'all' | 'each';

/**
 * Registers the hooks that open a resource and close it, in the describe (or file) it is
 * called in, and answers a getter for the one open now. Hooks run in the order they are
 * registered and their closing ones in reverse (vitest's `stack` order), so set-up written
 * after this call can use the resource and tear-down written after it runs before it closes.
 */
export function held<T>(
  name: string,
  open: () => Promise<T>,
  close: (value: T) => Promise<void>,
  lifetime: Lifetime = 'all',
): () => T {
  let current: T | undefined;
  const [before, after] = lifetime === 'each' ? [beforeEach, afterEach] : [beforeAll, afterAll];
  before(async () => {
    current = await open();
  });
  after(async () => {
    const value = current;
    current = undefined;
    if (value !== undefined) await close(value);
  });
  return () => {
    if (current === undefined)
      throw new Error(`${name} is open only inside the tests and hooks of the describe that declares it`);
    return current;
  };
}
