/**
 * `npm run program:build`: compiles program/src with clang-19 for upstream BPF, links the
 * object into an SBPF v3 program with our linker (program/linker), and writes
 * program/tag_registry.so and its SHA-256. The output is byte-for-byte reproducible; the
 * tests rebuild it and compare against the committed file.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { linkSbpf } from './linker/link-sbpf';

const PROGRAM_DIR = path.dirname(fileURLToPath(import.meta.url));
export const SOURCE_FILE = path.join(PROGRAM_DIR, 'src', 'tag_registry.c');
export const SO_NAME = 'tag_registry.so';
/** The committed binary and its checksum. */
export const COMMITTED_SO = path.join(PROGRAM_DIR, SO_NAME);
export const COMMITTED_SHA256 = `${COMMITTED_SO}.sha256`;
/** Public, localnet/test-only keypair of LOCALNET_PROGRAM_ID (see packages/tag-registry/src/localnet.ts): loader-v3 needs it to sign the deploy. */
export const LOCALNET_PROGRAM_KEYPAIR = path.join(PROGRAM_DIR, 'localnet-program-keypair.json');

const CLANG = process.env.CLANG ?? 'clang-19';
/**
 * -mcpu=v2: no alu32 (SBPF sign-extends 32-bit results, eBPF zero-extends) and no 32-bit
 * jumps; the stack option lifts clang's 512-byte cap to SBPF's fixed 4 KiB frame.
 */
export const CLANG_FLAGS = [
  '-target',
  'bpf',
  '-mcpu=v2',
  '-O2',
  '-ffreestanding',
  '-fno-builtin',
  '-nostdlib',
  '-mllvm',
  '-bpf-stack-size=4096',
  '-Wall',
  '-Wextra',
  '-Werror',
  '-c',
];

export interface BuildResult {
  soPath: string;
  /** Lower-case hex SHA-256 of the .so. */
  sha256: string;
}

/** Compiles one C file for upstream BPF with the flags above; fails clearly without clang-19. */
export function compileObject(source: string, objectPath: string): void {
  try {
    execFileSync(CLANG, ['--version'], { stdio: 'ignore' });
  } catch {
    throw new Error(`${CLANG} not found: install it with \`apt-get install -y clang-19\``);
  }
  // Relative source path and fixed cwd: nothing about the caller's machine enters the object.
  execFileSync(CLANG, [...CLANG_FLAGS, path.relative(PROGRAM_DIR, source), '-o', objectPath], {
    cwd: PROGRAM_DIR,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

/**
 * Builds the program into `outDir` (object in `outDir`, `tag_registry.so` and
 * `tag_registry.so.sha256` beside it). `sourceFile` builds another copy of the source (the
 * upgrade tests build a changed one).
 */
export function buildProgram({
  outDir,
  sourceFile = SOURCE_FILE,
}: {
  outDir: string;
  sourceFile?: string;
}): BuildResult {
  mkdirSync(outDir, { recursive: true });
  const objectPath = path.join(outDir, 'tag_registry.o');
  compileObject(sourceFile, objectPath);
  const so = linkSbpf(new Uint8Array(readFileSync(objectPath)));
  const soPath = path.join(outDir, SO_NAME);
  const sha256 = createHash('sha256').update(so).digest('hex');
  writeFileSync(soPath, so);
  writeFileSync(`${soPath}.sha256`, `${sha256}  ${SO_NAME}\n`);
  return { soPath, sha256 };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const built = buildProgram({ outDir: path.join(PROGRAM_DIR, 'build') });
  writeFileSync(COMMITTED_SO, readFileSync(built.soPath));
  writeFileSync(COMMITTED_SHA256, `${built.sha256}  ${SO_NAME}\n`);
  console.log(`${path.relative(process.cwd(), COMMITTED_SO)} ${built.sha256}`);
}
