// The house's own ESLint rules (eslint.config.mjs turns them on where they apply): what a review
// kept finding, said once as a rule instead of a test that greps the sources.
import { parse } from '@typescript-eslint/parser';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Whether `node` is `export const <name> = <literal value>`. */
function exportsConst(node, name, value) {
  return (
    node.type === 'ExportNamedDeclaration' &&
    node.declaration?.type === 'VariableDeclaration' &&
    node.declaration.declarations.some(
      (d) => d.id.type === 'Identifier' && d.id.name === name && d.init?.type === 'Literal' && d.init.value === value,
    )
  );
}

/**
 * A route handler file is rendered per request. They all read their request anyway, but a route
 * left at 'auto' gets its request wrapped in a proxy that reports every read of headers, url or
 * body, at a cost on every request. Said as a literal, as Next.js reads it.
 */
const routeIsDynamic = {
  meta: {
    type: 'problem',
    messages: { missing: "A route file exports `const dynamic = 'force-dynamic'` (rendered per request)." },
    schema: [],
  },
  create(context) {
    return {
      Program(program) {
        if (!program.body.some((node) => exportsConst(node, 'dynamic', 'force-dynamic')))
          context.report({ node: program, messageId: 'missing' });
      },
    };
  },
};

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * A /v1 route file exports every method through v1Route or v1Handlers, so a method it does not
 * serve answers 405 with Allow in the envelope, not Next.js's empty 405.
 */
const v1RouteExportsEveryMethod = {
  meta: {
    type: 'problem',
    messages: {
      missing: `A /v1 route file exports { ${METHODS.join(', ')} } = v1Route(…) or v1Handlers(…) (405 with Allow in the envelope).`,
    },
    schema: [],
  },
  create(context) {
    const exportsEvery = (node) =>
      node.type === 'ExportNamedDeclaration' &&
      node.declaration?.type === 'VariableDeclaration' &&
      node.declaration.declarations.some(
        (d) =>
          d.id.type === 'ObjectPattern' &&
          METHODS.every((m) => d.id.properties.some((p) => p.type === 'Property' && p.key.name === m)) &&
          d.init?.type === 'CallExpression' &&
          ['v1Route', 'v1Handlers'].includes(d.init.callee.name),
      );
    return {
      Program(program) {
        if (!program.body.some(exportsEvery)) context.report({ node: program, messageId: 'missing' });
      },
    };
  },
};

/** `lib/http/heavy-requests.ts`'s HEAVY_REQUESTS as `{ kind, path }` pairs, read from its syntax tree (the door's one table). */
function heavyRequestsTable(root) {
  const file = path.join(root, 'lib/http/heavy-requests.ts');
  const program = parse(readFileSync(file, 'utf8'), { range: false, loc: false });
  const declarator = program.body
    .flatMap((node) => (node.type === 'ExportNamedDeclaration' ? (node.declaration?.declarations ?? []) : []))
    .find((d) => d.id.name === 'HEAVY_REQUESTS');
  const array = declarator?.init?.type === 'TSAsExpression' ? declarator.init.expression : declarator?.init;
  if (array?.type !== 'ArrayExpression') throw new Error(`${file}: HEAVY_REQUESTS is not an array literal`);
  const field = (object, name) => object.properties.find((p) => p.key?.name === name)?.value?.value;
  return array.elements.map((object) => ({ kind: field(object, 'kind'), path: field(object, 'path') }));
}

/** The path an app/ route file serves, as the table writes it: `(group)` segments dropped, `[tag]` as `{tag}`. */
function routePathOf(root, filename) {
  const segments = path.relative(path.join(root, 'app'), path.dirname(filename)).split(path.sep);
  const kept = segments.filter((s) => s && !/^\(.*\)$/.test(s)).map((s) => s.replace(/^\[(\w+)\]$/, '{$1}'));
  return `/${kept.join('/')}`;
}

/** The calls that bound or count heavy work, each naming its kind first. */
const HEAVY_CALLS = new Set(['withHeavyWork', 'shedWhileBusy', 'admitHeavyBytes']);

/**
 * A route that bounds its work as heavy (withHeavyWork and its kin, or a /v1 operation's
 * `heavy:`) is listed at the door under that kind and its own path (lib/http/heavy-requests.ts),
 * so `npm start`'s server sheds it before Next.js sees it. The kind is a literal, as the table's.
 */
const heavyWorkIsAtTheDoor = {
  meta: {
    type: 'problem',
    messages: {
      untabled:
        "Heavy work of kind '{{kind}}' on {{route}}: list the route under that kind in lib/http/heavy-requests.ts, so the door sheds it too.",
      notLiteral: 'Name the heavy work’s kind as a string literal (a kind of lib/http/heavy-requests.ts).',
    },
    schema: [],
  },
  create(context) {
    const root = context.cwd;
    const route = routePathOf(root, context.filename);
    const table = heavyRequestsTable(root);
    const check = (node, kindNode) => {
      if (kindNode?.type !== 'Literal' || typeof kindNode.value !== 'string')
        return context.report({ node, messageId: 'notLiteral' });
      const kind = kindNode.value;
      if (!table.some((entry) => entry.kind === kind && entry.path === route))
        context.report({ node, messageId: 'untabled', data: { kind, route } });
    };
    return {
      CallExpression(node) {
        if (node.callee.type === 'Identifier' && HEAVY_CALLS.has(node.callee.name)) check(node, node.arguments[0]);
      },
      Property(node) {
        if (node.key.type === 'Identifier' && node.key.name === 'heavy') check(node, node.value);
      },
    };
  },
};

export const houseRules = {
  rules: {
    'route-is-dynamic': routeIsDynamic,
    'v1-route-exports-every-method': v1RouteExportsEveryMethod,
    'heavy-work-is-at-the-door': heavyWorkIsAtTheDoor,
  },
};

const GLOBAL = /^(globalThis|global)$/;
const NEXT_INTERNALS = /^next\/dist\//;

const NEXT_INTERNALS_MESSAGE = "Next.js's internals: use its public API.";
const WEB3_V1 = '@solana/web3.js';
/** Where wallet-adapter needs web3.js v1, loaded with the wallet dialog (eslint.config.mjs names the files). */
const WEB3_V1_MESSAGE =
  'web3.js v1 is only for the wallet boundary (components/wallet/, lib/web/browser/wire-transaction.ts), which wallet-adapter needs: use @solana/kit.';

/**
 * The service builds on the public APIs of its framework and runtime only: a module under
 * `next/dist/` is Next.js's internals, which any release may move, and a global that one file
 * patches changes what every module (and the framework) gets. (A value kept under a symbol of
 * ours is no patch: nothing else reads it.) And one Solana SDK: kit, except at the wallet
 * boundary (`walletBoundary: true`).
 */
function publicApisRules({ walletBoundary }) {
  const imported = (source) => [
    `ImportExpression[source.value=${source}]`,
    `CallExpression[callee.name='require'][arguments.0.value=${source}]`,
  ];
  return {
    'no-restricted-imports': [
      'error',
      {
        patterns: [{ regex: NEXT_INTERNALS.source, message: NEXT_INTERNALS_MESSAGE }],
        ...(walletBoundary ? {} : { paths: [{ name: WEB3_V1, message: WEB3_V1_MESSAGE }] }),
      },
    ],
    'no-restricted-syntax': [
      'error',
      ...imported(NEXT_INTERNALS).map((selector) => ({ selector, message: NEXT_INTERNALS_MESSAGE })),
      ...(walletBoundary
        ? []
        : imported(`/^@solana\\/web3\\.js$/`).map((selector) => ({ selector, message: WEB3_V1_MESSAGE }))),
      ...[
        `AssignmentExpression[left.type='MemberExpression'][left.computed=false][left.object.name=${GLOBAL}]`,
        `AssignmentExpression[left.type='MemberExpression'][left.property.type='Literal'][left.object.name=${GLOBAL}]`,
        `AssignmentExpression[left.type='MemberExpression'][left.computed=false][left.object.type='TSAsExpression'][left.object.expression.name=${GLOBAL}]`,
        `AssignmentExpression[left.type='MemberExpression'][left.property.type='Literal'][left.object.type='TSAsExpression'][left.object.expression.name=${GLOBAL}]`,
        `CallExpression[callee.object.name='Object'][callee.property.name=/^(defineProperty|defineProperties|assign)$/][arguments.0.name=${GLOBAL}]`,
      ].map((selector) => ({ selector, message: 'Patches a global: every module and the framework would see it.' })),
    ],
  };
}

export const publicApisOnly = publicApisRules({ walletBoundary: false });
/** The same at the wallet boundary, where web3.js v1 may be imported. */
export const publicApisAtTheWalletBoundary = publicApisRules({ walletBoundary: true });
