import { describe, expect, it } from 'vitest';
import { createBatcher } from '@/lib/db/batch';

/** A batch runner that records each batch and answers when told to. */
function recorder<I>() {
  const batches: I[][] = [];
  const pending: (() => void)[] = [];
  const run = (items: I[]) =>
    new Promise<string[]>((resolve) => {
      batches.push(items);
      pending.push(() => resolve(items.map((i) => `done ${String(i)}`)));
    });
  return { batches, run, answerNext: () => pending.shift()!() };
}

describe('createBatcher', () => {
  it('sends a call at once when nothing is in flight, and queues the rest into one next batch', async () => {
    const r = recorder<number>();
    const call = createBatcher(r.run);
    const results = [1, 2, 3, 4].map((i) => call(i));
    expect(r.batches).toEqual([[1]]);
    r.answerNext();
    expect(await results[0]).toBe('done 1');
    expect(r.batches).toEqual([[1], [2, 3, 4]]);
    r.answerNext();
    expect(await Promise.all(results.slice(1))).toEqual(['done 2', 'done 3', 'done 4']);
  });

  it('keeps at most maxInFlight batches on their way, and splits the queue at maxBatch', async () => {
    const r = recorder<number>();
    const call = createBatcher(r.run, { maxInFlight: 2, maxBatch: 2 });
    const results = [1, 2, 3, 4, 5, 6].map((i) => call(i));
    expect(r.batches).toEqual([[1], [2]]);
    r.answerNext();
    await results[0];
    expect(r.batches).toEqual([[1], [2], [3, 4]]);
    r.answerNext();
    r.answerNext();
    await Promise.all(results.slice(1, 4));
    expect(r.batches).toEqual([[1], [2], [3, 4], [5, 6]]);
    r.answerNext();
    expect(await Promise.all(results)).toEqual([1, 2, 3, 4, 5, 6].map((i) => `done ${i}`));
  });

  it('a failed batch fails each of its calls, and the next batch still runs', async () => {
    let fail = true;
    const call = createBatcher(async (items: number[]) => {
      if (fail) throw new Error('database down');
      return items.map((i) => i * 10);
    });
    const first = [call(1), call(2)];
    fail = false; // the first batch ([1]) has already started and fails; [2] runs after it
    await expect(first[0]).rejects.toThrow('database down');
    expect(await first[1]).toBe(20);
    expect(await call(3)).toBe(30);
  });

  it('a batch answering the wrong number of results fails its calls instead of mismatching them', async () => {
    const call = createBatcher(async (items: number[]) => items.slice(1));
    await expect(call(1)).rejects.toThrow('a batch of 1 got 0 results');
  });
});
