/** The rows of a raw `db.execute()` result, whichever driver ran it (all three expose `rows`). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
