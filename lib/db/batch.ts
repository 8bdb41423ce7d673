/**
 * Group commit for a hot statement: calls made while a batch is on its way to the database
 * wait, and go together in the next one (one statement, one round trip for all of them). An
 * idle server sends each call at once, alone; a busy one sends fewer, larger statements. A
 * round trip costs the server far more than the rows it carries (see bench/results/2026-11-26.md):
 * measured side by side, one batch in flight beat two and beat none.
 *
 * `run` gets the items in call order and answers one result per item, in the same order.
 */
export function createBatcher<I, O>(
  run: (items: I[]) => Promise<O[]>,
  { maxInFlight = 1, maxBatch = 100 }: { maxInFlight?: number; maxBatch?: number } = {},
): (item: I) => Promise<O> {
  type Waiting = { item: I; resolve: (o: O) => void; reject: (e: unknown) => void };
  const queue: Waiting[] = [];
  let inFlight = 0;

  const send = async (batch: Waiting[]) => {
    inFlight++;
    try {
      const results = await run(batch.map((w) => w.item));
      if (results.length !== batch.length) throw new Error(`a batch of ${batch.length} got ${results.length} results`);
      batch.forEach((w, i) => w.resolve(results[i]));
    } catch (err) {
      for (const w of batch) w.reject(err);
    } finally {
      inFlight--;
      flush();
    }
  };
  const flush = () => {
    while (inFlight < maxInFlight && queue.length > 0) {
      void send(queue.splice(0, maxBatch));
    }
  };
  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      flush();
    });
}

/** One value per handle (e.g. a batcher bound to a database), made on first use. */
export function perHandle<K extends object, V>(make: (handle: K) => V): (handle: K) => V {
  const made = new WeakMap<K, V>();
  return (handle) => {
    let value = made.get(handle);
    if (value === undefined) made.set(handle, (value = make(handle)));
    return value;
  };
}
