/**
 * Runs `step` until `visible` holds on what it returned, for at most `withinMs` (a pause of
 * `pauseMs` between tries), and returns the last result: the test asserts on it. A feed or
 * webhook event is served once no transaction older than it is open anywhere in the PostgreSQL
 * cluster, and another test file's may be for a moment: what a test claims is that the event
 * arrives, not that the first read or pass shows it.
 */
export async function untilVisible<T>(
  step: () => Promise<T>,
  visible: (result: T) => boolean,
  { withinMs = 10_000, pauseMs = 100 }: { withinMs?: number; pauseMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const result = await step();
    if (visible(result) || Date.now() >= deadline) return result;
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}
