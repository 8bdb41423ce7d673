// Apps for the scale and memory benchmarks: a copy of the build to run them from, every
// /@tag of a list viewed once, and an app's resident memory.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { buildDir, type RunningApp } from '@/devstack/app';
import { measure } from './measure';

/**
 * A copy of the build (its cache folder left out) for a run's apps, as NEXT_DIST_DIR: the
 * pages they render and keep stay out of the build others run, and go with the copy.
 */
export function copyOfBuild(): { dir: string; remove: () => void } {
  const dir = `.next-scale-${randomBytes(4).toString('hex')}`;
  const source = buildDir();
  execFileSync('mkdir', [dir]);
  const entries = readdirSync(source).filter((name) => name !== 'cache');
  execFileSync('cp', ['-r', ...entries.map((name) => `${source}/${name}`), `${dir}/`]);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Resident memory (bytes) of a process and its descendants, from /proc. */
export function residentBytes(pid: number): number {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  let total = 0;
  const visit = (p: number) => {
    try {
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      total += rss ? Number(rss[1]) * 1024 : 0;
    } catch {
      return;
    }
    for (const child of children.get(p) ?? []) visit(child);
  };
  visit(pid);
  return total;
}

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** Every /@tag of `tags` viewed once, 10 at a time, as a browser asks; views per second. */
export async function viewAll(app: RunningApp, tags: string[]): Promise<{ viewsPerSecond: number; failures: number }> {
  let next = 0;
  const t0 = performance.now();
  const result = await measure({
    name: 'views',
    url: `${app.url}/@${tags[0]}`,
    headers: { 'accept-encoding': 'gzip, deflate, br' },
    nextPath: () => `/@${tags[next++ % tags.length]}`,
    amount: tags.length,
    durationSeconds: 3600,
    connections: 10,
    // a first render on a busy machine can take seconds: a slow view is still a view
    timeoutSeconds: 120,
  });
  return { viewsPerSecond: tags.length / ((performance.now() - t0) / 1000), failures: result.non2xx + result.errors };
}
