// The rules `npm run lint` holds the sources to where a test used to grep them
// (scripts/lint/house-rules.mjs, eslint.config.mjs): each one fires on what it forbids, written
// any way, and passes what is allowed. The whole tree passing them is `npm run lint` itself.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

/** The messages ESLint gives `code` as the file at `filePath` (not written to disk). */
async function problems(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

// The strings are built in pieces so that this file does not itself hold what it forbids.
const dist = 'next/' + 'dist/server/app-render/work-async-storage.external';
const globalObject = 'global' + 'This';
const nodeGlobal = 'glo' + 'bal';

describe('public APIs only (every source file)', () => {
  it.each([
    `import { workAsyncStorage } from '${dist}';`,
    `import type { WorkStore } from "${dist}";`,
    `import '${dist}';`,
    `await import('${dist}');`,
    `const { x } = require('${dist}');`,
  ])('refuses an import of Next.js internals: %s', async (line) => {
    expect((await problems(`${line}\nexport {};\n`, 'lib/core/example.ts')).join('\n')).toMatch(
      /no-restricted-(imports|syntax): .*Next\.js's internals/,
    );
  });

  it.each([
    `(${globalObject} as { AsyncLocalStorage?: unknown }).AsyncLocalStorage ??= 1;`,
    `${globalObject}.fetch = fetch;`,
    `${globalObject}['crypto'] = 1;`,
    `${nodeGlobal}.Date = Date;`,
    `Object.defineProperty(${globalObject}, 'navigator', { value: {} });`,
    `Object.assign(${globalObject}, { WebSocket: 1 });`,
  ])('refuses a patched global: %s', async (line) => {
    expect((await problems(`${line}\n`, 'scripts/example.ts')).join('\n')).toMatch(/Patches a global/);
  });

  it.each([
    "import { after } from 'next/server';\nexport { after };",
    `export const res = await ${globalObject}.fetch('http://x');`,
    `const holder = ${globalObject} as unknown as Record<symbol, number>;\nholder[Symbol.for('ours')] = 1;`,
  ])('passes public imports, reading globals and a value kept under a symbol of ours: %s', async (code) => {
    expect(await problems(`${code}\n`, 'lib/core/example.ts')).toEqual([]);
  });
});

describe('one Solana SDK: kit, and web3.js v1 only at the wallet boundary', () => {
  const v1 = '@solana/' + 'web3.js';
  it.each([
    `import { PublicKey } from '${v1}';\nexport const k = PublicKey;`,
    `import type { Connection } from "${v1}";\nexport type C = Connection;`,
    `export const m = await import('${v1}');`,
    `export const m = require('${v1}');`,
  ])('refuses web3.js v1 outside the wallet boundary: %s', async (code) => {
    for (const file of [
      'lib/chain/example.ts',
      'tests/example.test.ts',
      'bench/example.ts',
      'components/register/Example.tsx',
    ])
      expect((await problems(`${code}\n`, file)).join('\n')).toMatch(/only for the wallet boundary/);
  });

  it('passes it at the wallet boundary, and kit everywhere', async () => {
    const code = `import { PublicKey } from '${v1}';\nexport const k = PublicKey;\n`;
    expect(await problems(code, 'components/wallet/Example.tsx')).toEqual([]);
    expect(await problems(code, 'lib/web/browser/wire-transaction.ts')).toEqual([]);
    expect(
      await problems("import { address } from '@solana/kit';\nexport const a = address;\n", 'lib/chain/example.ts'),
    ).toEqual([]);
  });
});

describe('route files', () => {
  const v1Route = [
    "import { v1Route } from '@/lib/http/v1-route';",
    "export const dynamic = 'force-dynamic';",
    "export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route('/v1/x', {});",
  ];

  it("refuses a route file without `export const dynamic = 'force-dynamic'`", async () => {
    expect(await problems('export function GET() {}\n', 'app/api/example/route.ts')).toEqual([
      "house/route-is-dynamic: A route file exports `const dynamic = 'force-dynamic'` (rendered per request).",
    ]);
    expect(
      await problems("export const dynamic = 'force-dynamic';\nexport function GET() {}\n", 'app/api/example/route.ts'),
    ).toEqual([]);
  });

  it('refuses a /v1 route file that does not export every method through v1Route', async () => {
    expect(await problems(`${v1Route.join('\n')}\n`, 'app/v1/example/route.ts')).toEqual([]);
    const fewer = v1Route.map((line) => line.replace('PUT, PATCH, ', ''));
    expect((await problems(`${fewer.join('\n')}\n`, 'app/v1/example/route.ts')).join('\n')).toMatch(
      /house\/v1-route-exports-every-method/,
    );
  });

  it('refuses heavy work on a route the door does not list under that kind (lib/http/heavy-requests.ts)', async () => {
    const heavyProblems = async (code: string, filePath: string) =>
      (await problems(code, filePath)).filter((m) => m.startsWith('house/heavy-work-is-at-the-door'));
    const bounded = (kind: string) =>
      [
        "import { withHeavyWork } from '@/lib/http/heavy-work';",
        "export const dynamic = 'force-dynamic';",
        `export const GET = () => withHeavyWork(${kind}, { concurrency: 1, maxEventLoopUtilization: 1, bytesPerSecond: 1 }, async () => new Response());`,
      ].join('\n') + '\n';
    expect(await heavyProblems(bounded("'feed'"), 'app/v1/events/route.ts')).toEqual([]);
    expect(await heavyProblems(bounded("'og image'"), 'app/profile/[tag]/opengraph-image/route.ts')).toEqual([]);
    expect(await heavyProblems(bounded("'feed'"), 'app/v1/feed-copy/route.ts')).toEqual([
      "house/heavy-work-is-at-the-door: Heavy work of kind 'feed' on /v1/feed-copy: list the route under that kind in lib/http/heavy-requests.ts, so the door sheds it too.",
    ]);
    expect((await heavyProblems(bounded("'og image'"), 'app/v1/events/route.ts')).join('\n')).toMatch(
      /kind 'og image' on \/v1\/events/,
    );
    expect((await heavyProblems(bounded('kind'), 'app/v1/events/route.ts')).join('\n')).toMatch(/as a string literal/);
    const declared = "export const dynamic = 'force-dynamic';\nexport const op = { heavy: 'resolve batch' };\n";
    expect(await heavyProblems(declared, 'app/v1/resolve/route.ts')).toEqual([]);
    expect((await heavyProblems(declared, 'app/v1/resolve/[tag]/route.ts')).join('\n')).toMatch(
      /\/v1\/resolve\/\{tag\}/,
    );
  });
});
