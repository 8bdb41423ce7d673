import { readdirSync } from 'node:fs';
import path from 'node:path';
import { declarationOf, type V1RouteDeclaration } from '@/lib/http/v1-route';

/** Every `app/v1/**\/route.ts` but the catch-all, with the path its place in the tree gives it (`[tag]` → `{tag}`). */
export function v1RouteFiles(root = path.join(process.cwd(), 'app', 'v1')): { file: string; path: string }[] {
  return (readdirSync(root, { recursive: true }) as string[])
    .filter((f) => /(^|\/)route\.ts$/.test(f) && !f.includes('[[...rest]]'))
    .map((f) => ({
      file: path.join(root, f),
      path:
        '/' +
        path
          .join('v1', path.dirname(f))
          .split(path.sep)
          .map((s) => s.replace(/^\[(.+)\]$/, '{$1}'))
          .join('/'),
    }))
    .sort((a, b) => a.path.localeCompare(b.path));
}

/** Each route file's module and the declaration v1Route made of it (null when the file does not use v1Route). */
export async function v1RouteModules(): Promise<
  { file: string; path: string; module: Record<string, unknown>; declaration: V1RouteDeclaration | null }[]
> {
  return Promise.all(
    v1RouteFiles().map(async (route) => {
      const loaded = (await import(route.file)) as Record<string, unknown>;
      return { ...route, module: loaded, declaration: declarationOf(loaded) };
    }),
  );
}

/** Every operation the app serves under /v1, read from the route files: `GET /v1/identity/{tag}`, … */
export async function servedV1Operations(): Promise<{ path: string; method: string }[]> {
  const routes = await v1RouteModules();
  return routes
    .flatMap(({ path: p, declaration }) =>
      Object.keys(declaration?.operations ?? {}).map((method) => ({ path: p, method })),
    )
    .sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
}
