import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * Every operation the app serves under /v1, read from the files: each `app/v1/**\/route.ts`
 * and the HTTP methods it exports. `[tag]` segments become `{tag}`. OPTIONS (CORS preflight)
 * and HEAD are not operations.
 */
export function servedV1Operations(root = path.join(process.cwd(), 'app', 'v1')): { path: string; method: string }[] {
  const found: { path: string; method: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/^route\.(ts|tsx|js|mjs)$/.test(entry.name)) {
        const rel = path.relative(path.join(root, '..'), path.dirname(full)).split(path.sep);
        const urlPath = '/' + rel.filter((s) => !/^\(.*\)$/.test(s)).map((s) => s.replace(/^\[(.+)\]$/, '{$1}')).join('/');
        const source = readFileSync(full, 'utf8');
        for (const method of HTTP_METHODS) {
          const exported =
            new RegExp(`export\\s+(const|let|var|async\\s+function|function)\\s+${method}\\b`).test(source) ||
            new RegExp(`export\\s*\\{[^}]*\\b${method}\\b[^}]*\\}`).test(source);
          if (exported) found.push({ path: urlPath, method });
        }
      }
    }
  };
  walk(root);
  return found.sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
}
