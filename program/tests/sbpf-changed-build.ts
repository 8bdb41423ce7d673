// A second build of the program for the upgrade tests: a copy of program/src in a temp dir
// whose entrypoint first logs a new line, then runs the real one. Built with the same
// compiler and linker as the committed .so; program/src itself is never touched.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProgram } from '@/program/build';

const SOURCE_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');

export function buildChangedProgram(workDir: string, logLine: string): Uint8Array {
  const src = path.join(workDir, 'src');
  cpSync(SOURCE_DIR, src, { recursive: true });
  const main = path.join(src, 'tag_registry.c');
  const original = readFileSync(main, 'utf8');
  const renamed = original.replace(/\bentrypoint\s*\(/g, 'entrypoint_before_upgrade(');
  if (renamed === original) throw new Error('program/src/tag_registry.c defines no entrypoint( to wrap');
  writeFileSync(
    main,
    `${renamed}\nstatic const char UPGRADE_LOG[] = ${JSON.stringify(logLine)};\n` +
      `u64 entrypoint(const u8 *input) {\n  sol_log_(UPGRADE_LOG, sizeof(UPGRADE_LOG) - 1);\n  return entrypoint_before_upgrade(input);\n}\n`,
  );
  const built = buildProgram({ outDir: path.join(workDir, 'out'), sourceFile: main });
  return new Uint8Array(readFileSync(built.soPath));
}
