// The house's own ESLint rules (eslint.config.mjs turns them on where they apply): what a review
// kept finding, said once as a rule instead of a test that greps the sources.

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

export const houseRules = {
  rules: { 'route-is-dynamic': routeIsDynamic, 'v1-route-exports-every-method': v1RouteExportsEveryMethod },
};

const GLOBAL = /^(globalThis|global)$/;
const NEXT_INTERNALS = /^next\/dist\//;

/**
 * The service builds on the public APIs of its framework and runtime only: a module under
 * `next/dist/` is Next.js's internals, which any release may move, and a global that one file
 * patches changes what every module (and the framework) gets. (A value kept under a symbol of
 * ours is no patch: nothing else reads it.)
 */
export const publicApisOnly = {
  'no-restricted-imports': [
    'error',
    { patterns: [{ regex: NEXT_INTERNALS.source, message: "Next.js's internals: use its public API." }] },
  ],
  'no-restricted-syntax': [
    'error',
    ...[
      `ImportExpression[source.value=${NEXT_INTERNALS}]`,
      `CallExpression[callee.name='require'][arguments.0.value=${NEXT_INTERNALS}]`,
    ].map((selector) => ({ selector, message: "Next.js's internals: use its public API." })),
    ...[
      `AssignmentExpression[left.type='MemberExpression'][left.computed=false][left.object.name=${GLOBAL}]`,
      `AssignmentExpression[left.type='MemberExpression'][left.property.type='Literal'][left.object.name=${GLOBAL}]`,
      `AssignmentExpression[left.type='MemberExpression'][left.computed=false][left.object.type='TSAsExpression'][left.object.expression.name=${GLOBAL}]`,
      `AssignmentExpression[left.type='MemberExpression'][left.property.type='Literal'][left.object.type='TSAsExpression'][left.object.expression.name=${GLOBAL}]`,
      `CallExpression[callee.object.name='Object'][callee.property.name=/^(defineProperty|defineProperties|assign)$/][arguments.0.name=${GLOBAL}]`,
    ].map((selector) => ({ selector, message: 'Patches a global: every module and the framework would see it.' })),
  ],
};
