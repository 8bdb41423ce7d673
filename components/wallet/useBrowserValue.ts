'use client';

import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/**
 * A value only the browser knows (the user agent, the page's URL, that hydration is done):
 * null while the server renders and while the page hydrates, so both render the same.
 */
export function useBrowserValue<T>(read: () => T): T | null {
  return useSyncExternalStore(noSubscription, read, () => null);
}
