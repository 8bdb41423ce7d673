import { AsyncLocalStorage } from 'node:async_hooks';

// Next.js makes its request stores from globalThis.AsyncLocalStorage, which it sets when it
// loads; a store module loaded before that (by scripts/serve.ts's logger, or a test) would
// make one that cannot run, and keep it for Next.js too. Set it first, as Next.js does.
(globalThis as { AsyncLocalStorage?: typeof AsyncLocalStorage }).AsyncLocalStorage ??= AsyncLocalStorage;
