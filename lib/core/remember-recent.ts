/**
 * The value kept under `key` in `kept`, made by `make` the first time, as the most recently used;
 * past `max` entries the least recently used is forgotten (a Map's order is its insertion order,
 * so the first key is the oldest). For answers that never change under their key: nothing
 * expires them, the bound is only memory.
 */
export function rememberRecent<V>(kept: Map<string, V>, key: string, make: () => V, max: number): V {
  let value = kept.get(key);
  if (value === undefined) value = make();
  else kept.delete(key); // re-inserted below, as the most recent
  kept.set(key, value);
  if (kept.size > max) kept.delete(kept.keys().next().value!);
  return value;
}
