// How `npm run admin` and `npm run indexer` end: with the exit code their `main` returns, or,
// when it throws, with exit code 1 and one line on stderr: an AppError as `error: <code>:
// <message>`, a configuration problem as the configuration words it, anything else by its message.
import { AppError } from '@/lib/core/errors';
import { ConfigError } from '@/lib/core/config';

export function runCommand(main: (args: string[]) => Promise<number>): void {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      if (err instanceof AppError) console.error(`error: ${err.code}: ${err.message}`);
      else if (err instanceof ConfigError) console.error(err.message);
      else console.error('error:', err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
