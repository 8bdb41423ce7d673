/**
 * Renders the Codama client of the tag registry from its IDL (program/idl/tag_registry.json,
 * the one description of the program's interface) into src/generated/. Run it after any
 * change to the IDL: `npm run abi:generate`, and commit the result with the IDL (the folder is
 * committed so that an ABI change shows in review; nothing renders it at install or build). tests/abi/generated-client.test.ts fails
 * while the folder differs from what this renders.
 */
import { rootNodeFromAnchor, type AnchorIdl } from '@codama/nodes-from-anchor';
import { renderVisitor } from '@codama/renderers-js';
import { createFromRoot } from 'codama';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_DIR = dirname(fileURLToPath(import.meta.url));
export const IDL_PATH = join(PACKAGE_DIR, '../../program/idl/tag_registry.json');
export const GENERATED_DIR = join(PACKAGE_DIR, 'src/generated');

/** Formatting fixed here (the renderer reads no Prettier configuration without a package folder). */
const PRETTIER = {
  printWidth: 100,
  tabWidth: 2,
  useTabs: false,
  semi: true,
  singleQuote: true,
  trailingComma: 'es5',
  bracketSpacing: true,
  arrowParens: 'always',
  endOfLine: 'lf',
} as const;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/** The generated client for `idlJson`: each file's path under src/generated/ and its text. */
export async function renderClient(idlJson: string = readFileSync(IDL_PATH, 'utf8')): Promise<Map<string, string>> {
  const root = rootNodeFromAnchor(JSON.parse(idlJson) as AnchorIdl);
  const scratch = mkdtempSync(join(tmpdir(), 'tag-registry-codama-'));
  try {
    await createFromRoot(root).accept(renderVisitor(scratch, { prettierOptions: PRETTIER }));
    return new Map(filesUnder(scratch).map((path) => [path, readFileSync(join(scratch, path), 'utf8')]));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The generated client as written under src/generated/, in the same shape as `renderClient`'s. */
export function writtenClient(): Map<string, string> {
  return new Map(filesUnder(GENERATED_DIR).map((path) => [path, readFileSync(join(GENERATED_DIR, path), 'utf8')]));
}

async function main() {
  const files = await renderClient();
  rmSync(GENERATED_DIR, { recursive: true, force: true });
  for (const [path, text] of files) {
    mkdirSync(dirname(join(GENERATED_DIR, path)), { recursive: true });
    writeFileSync(join(GENERATED_DIR, path), text);
  }
  console.log(`wrote ${files.size} files to ${relative(process.cwd(), GENERATED_DIR)}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
