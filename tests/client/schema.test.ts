import { readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CLIENT_SCHEMA_PATH, clientSchemaSource } from '@/scripts/client-contract';

const CLIENT_DIR = path.join(process.cwd(), 'packages/client');
const tsFilesIn = (dir: string) =>
  readdirSync(dir)
    .filter((name) => name.endsWith('.ts'))
    .map((name) => path.join(dir, name));

/** The last program built: the next one reuses its unchanged source files (all but the schema). */
let previous: ts.Program | undefined;

/**
 * The compiler's errors for the client's sources and its example, with `schemaSource` as
 * packages/client/src/schema.d.ts (whatever is on disk is not read), under the project's
 * compiler options.
 */
function clientTypeErrors(schemaSource: string): string[] {
  const { options } = ts.parseJsonConfigFileContent(
    ts.readConfigFile('tsconfig.json', ts.sys.readFile).config,
    ts.sys,
    process.cwd(),
  );
  const host = ts.createCompilerHost(options);
  const isSchema = (fileName: string) => path.resolve(fileName) === CLIENT_SCHEMA_PATH;
  const { fileExists, getSourceFile } = host;
  host.fileExists = (fileName) => isSchema(fileName) || fileExists(fileName);
  host.getSourceFile = (fileName, languageVersion, ...rest) =>
    isSchema(fileName)
      ? ts.createSourceFile(fileName, schemaSource, languageVersion)
      : getSourceFile(fileName, languageVersion, ...rest);
  const rootNames = [...tsFilesIn(path.join(CLIENT_DIR, 'src')), ...tsFilesIn(path.join(CLIENT_DIR, 'examples'))];
  const program = ts.createProgram(rootNames, { ...options, incremental: false }, host, previous);
  previous = program;
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

// The TypeScript compiler over the client and what it imports (kit's types among them): slow on a busy machine.
describe(
  "the typed client's types (packages/client/src/schema.d.ts, written by `npm run client:generate`)",
  { timeout: 180_000 },
  () => {
    it('the client and its example type-check against the types made from the document the app serves now', async () => {
      expect(clientTypeErrors(await clientSchemaSource())).toEqual([]);
    });

    it('the check reads those types: without the schemas the client uses, it fails', () => {
      const errors = clientTypeErrors('export interface paths {}\nexport interface components { schemas: {} }\n');
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.join('\n')).toMatch(/Property '\w+' does not exist on type '\{\}'/);
    });
  },
);
