import { useCallback, useEffect, useState } from 'react';
import { normalizeTag } from '@/lib/core/tag-rules';

export type Availability =
  | { state: 'empty' }
  | { state: 'invalid' }
  | { state: 'checking'; tag: string }
  | { state: 'available'; tag: string; warning: string | null }
  | { state: 'reserved'; tag: string }
  | { state: 'taken'; tag: string }
  | { state: 'lookalike'; tag: string; warning: string }
  | { state: 'error'; tag: string; message: string };

type Checked = Exclude<Availability, { state: 'empty' | 'invalid' | 'checking' }>;

/**
 * Live availability of a typed tag: the format with the service's own rule (no request for a
 * malformed tag), then reserved/taken/look-alike (with the warning to show before signing)
 * from GET /v1/availability/{tag}, `delayMs` after the
 * last keystroke. `recheck()` asks again (after a registration lost a race).
 */
export function useTagAvailability(input: string, delayMs = 300): { availability: Availability; recheck(): void } {
  const tag = input.trim() === '' ? null : normalizeTag(input.trim().replace(/^@/, ''));
  const [checked, setChecked] = useState<Checked | null>(null);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    if (!tag) return;
    const abort = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const res = await fetch(`/v1/availability/${encodeURIComponent(tag)}`, {
          signal: abort.signal,
          cache: 'no-store',
        });
        if (!res.ok)
          throw new Error(
            res.status === 503 ? 'The cluster cannot be reached to check.' : `Check failed (${res.status}).`,
          );
        const body = (await res.json()) as { available: boolean; reason: string | null; warning: string | null };
        setChecked(
          body.available
            ? { state: 'available', tag, warning: body.warning }
            : body.reason === 'lookalike'
              ? { state: 'lookalike', tag, warning: body.warning ?? '' }
              : { state: body.reason === 'reserved' ? 'reserved' : 'taken', tag },
        );
      } catch (err) {
        if (!abort.signal.aborted)
          setChecked({ state: 'error', tag, message: (err as Error).message || 'Check failed.' });
      }
    }, delayMs);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [tag, delayMs, generation]);

  let availability: Availability;
  if (input.trim() === '') availability = { state: 'empty' };
  else if (!tag) availability = { state: 'invalid' };
  else if (checked?.tag === tag) availability = checked;
  else availability = { state: 'checking', tag };

  const recheck = useCallback(() => {
    setChecked(null);
    setGeneration((g) => g + 1);
  }, []);
  return { availability, recheck };
}
