import pino from 'pino';
import { logger, requestLog } from '@/lib/observability/logger';

/*
 * The log lines this process writes, kept in memory: an in-process app's lines
 * (./in-process.ts) are this process's own, so a test reads them here instead of from a
 * child's stdout. The process's two loggers (lib/observability/logger.ts) are pointed at a
 * sink of the test's; the lines are the ones production writes, with the same options.
 */
export interface CapturedLogs {
  /** Every line written since the capture began, as text (the shape of RunningApp's output()). */
  output(): string;
}

export function captureLogs(): CapturedLogs {
  let written = '';
  const sink = {
    write(chunk: string) {
      written += chunk;
    },
  };
  // pino.symbols is pino's public handle on a logger's destination; children read it from their parent.
  for (const log of [logger, requestLog]) (log as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] = sink;
  return { output: () => written };
}
