/**
 * Whether an `Accept` header admits `application/json` (RFC 9110 12.5.1): a range that matches
 * it (`application/json`, `application/*`, `*\/*`) with a weight above zero. No header admits
 * anything. The most specific matching range decides, so `*\/*, application/json;q=0` refuses.
 */
export function acceptsJson(accept: string | null): boolean {
  if (accept === null || accept.trim() === '') return true;
  const specificity: Record<string, number> = { 'application/json': 3, 'application/*': 2, '*/*': 1 };
  let best = { rank: 0, q: 0 };
  for (const range of accept.split(',')) {
    const [type, ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    const rank = specificity[type] ?? 0;
    if (rank === 0 || rank < best.rank) continue;
    const weight = params.find((p) => p.startsWith('q='));
    const q = weight ? Number(weight.slice(2)) : 1;
    best = { rank, q: rank === best.rank ? Math.max(best.q, q) : q };
  }
  return best.q > 0;
}
