'use client';

import { useEffect, useState } from 'react';

/**
 * What `load` resolves to (a dynamic import, and what is made of it), or null before it has and
 * while `load` is null. Loads again when `load` changes (memoize it); a result that arrives after
 * a change or an unmount is dropped.
 */
export function useLoaded<T>(load: (() => Promise<T>) | null): T | null {
  const [value, setValue] = useState<T | null>(null);
  useEffect(() => {
    if (!load) return;
    let current = true;
    void load().then((loaded) => {
      if (current) setValue(() => loaded);
    });
    return () => {
      current = false;
    };
  }, [load]);
  return value;
}
