// A Turbopack loader (lib/web/browser-build-rules.ts) that stops `next build` when a module of
// the browser's bundle imports a Node.js built-in. It runs only on the app's own modules that
// Turbopack compiles for the browser and whose text matches the rule's pattern; it passes
// anything else through untouched.
const NODE_IMPORT =
  /^\s*(?:import|export)\b[^;]*?\bfrom\s*['"](node:[^'"]+)['"]|^\s*import\s*['"](node:[^'"]+)['"]|\b(?:require|import)\(\s*['"](node:[^'"]+)['"]\s*\)/m;

module.exports = function refuseNodeInBrowser(source) {
  const found = NODE_IMPORT.exec(source);
  if (!found) return source;
  const builtin = found[1] || found[2] || found[3];
  throw new Error(
    `${this.resourcePath} imports ${builtin}, a Node.js built-in, and is part of the browser's bundle ` +
      "(a 'use client' component imports it, directly or through other modules). Browser code cannot use " +
      'Node.js built-ins: use a Web API, or move the work to a server module (lib/web/server/, lib/README.md "Layers").',
  );
};
