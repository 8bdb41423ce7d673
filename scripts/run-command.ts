// How `npm run admin` and `npm run indexer` end: with the exit code their `main` returns, or,
// when it throws, with exit code 1 and one line on stderr: an AppError as `error: <code>:
// <message>`, a configuration problem as the configuration words it, anything else by its message.
import { AppError } from '@/lib/core/errors';
import { ConfigError } from '@/lib/core/config';

/** Where a command writes its lines: stdout and stderr in a process, a test's own in-process. */
export interface CommandIo {
  out(line: string): void;
  err(line: string): void;
}

export type CommandMain = (args: string[], io: CommandIo) => Promise<number>;

const CONSOLE: CommandIo = { out: (line) => console.log(line), err: (line) => console.error(line) };

/** The exit code `main` ends with on `args` (see above), its lines written to `io`. */
export async function commandExitCode(main: CommandMain, args: string[], io: CommandIo): Promise<number> {
  try {
    return await main(args, io);
  } catch (err) {
    if (err instanceof AppError) io.err(`error: ${err.code}: ${err.message}`);
    else if (err instanceof ConfigError) io.err(err.message);
    else io.err(`error: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

export function runCommand(main: CommandMain): void {
  void commandExitCode(main, process.argv.slice(2), CONSOLE).then((code) => process.exit(code));
}
