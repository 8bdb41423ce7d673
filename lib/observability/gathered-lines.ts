import type { DestinationStream } from 'pino';

/*
 * Log lines gathered into few writes, for a server that stays up (./logger.ts). One write a
 * line cost each request a write call; SonicBoom (pino's destination) can gather too (its
 * minLength), but it measures the whole gathered text again on every line (Buffer.byteLength
 * of a string that keeps growing, copied each time), about as dear as the line itself. Here a
 * line is pushed on a list, and the list is joined and handed on once: pino's line plus its
 * write went from 4.1 to 2.1 µs (bench/results/2026-11-26.md).
 */

/** Where gathered lines are handed, as one text: a destination that writes what it is given (a synchronous SonicBoom). */
export interface LineSink {
  write(text: string): unknown;
}

/** When gathered lines are handed on: once they reach `minChars`, or `maxDelayMs` after the first of them. */
export interface Gathering {
  minChars: number;
  maxDelayMs: number;
}

/**
 * A pino destination gathering lines for `sink` (see above). What it holds is handed on when
 * the process exits, and by `flush` (pino's `logger.flush(done)` calls it).
 */
export function gatherLines(sink: LineSink, { minChars, maxDelayMs }: Gathering): DestinationStream & { flush(done?: () => void): void } {
  let lines: string[] = [];
  let chars = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (lines.length === 0) return;
    const text = lines.join('');
    lines = [];
    chars = 0;
    sink.write(text);
  };
  // on exit, after an uncaught exception too; the sink is synchronous, so it lands before the end
  process.once('exit', flush);
  return {
    write(line: string) {
      lines.push(line);
      chars += line.length;
      if (chars >= minChars) flush();
      else if (timer === undefined) timer = setTimeout(flush, maxDelayMs).unref();
    },
    flush(done?: () => void) {
      flush();
      done?.();
    },
  };
}
