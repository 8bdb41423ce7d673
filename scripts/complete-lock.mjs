#!/usr/bin/env node
// Adds to package-lock.json the other platforms' builds of a package that the registry reached
// from here does not carry at the wanted version (litesvm's, today), so that `npm ci` finds the
// lock in sync with package.json on any machine. Each entry names its version and platform only;
// a machine of that platform fetches it by name and version. Run after `npm install`;
// tests/operating/lock-file.test.ts fails when an entry is missing.
import { readFileSync, writeFileSync } from 'node:fs';

const LOCK = new URL('../package-lock.json', import.meta.url);
const PLATFORM = /-(darwin|linux|win32|freebsd|android)-(x64|arm64|ia32|arm|universal)(?:-(gnu|musl|msvc))?$/;

export function missingOptionalEntries(lock) {
  const missing = [];
  for (const [where, entry] of Object.entries(lock.packages)) {
    for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
      const parent = where ? `${where}/node_modules/${name}` : `node_modules/${name}`;
      if (!lock.packages[parent] && !lock.packages[`node_modules/${name}`]) missing.push({ name, version });
    }
  }
  return missing;
}

function entryFor(name, version) {
  const [, os, cpu, libc] = PLATFORM.exec(name) ?? [];
  if (!os) throw new Error(`complete-lock: cannot tell the platform of ${name}`);
  return {
    version,
    ...(cpu === 'universal' ? {} : { cpu: [cpu] }),
    ...(libc === 'gnu' ? { libc: ['glibc'] } : libc === 'musl' ? { libc: ['musl'] } : {}),
    optional: true,
    os: [os],
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const lock = JSON.parse(readFileSync(LOCK, 'utf8'));
  const missing = missingOptionalEntries(lock);
  for (const { name, version } of missing) lock.packages[`node_modules/${name}`] = entryFor(name, version);
  lock.packages = Object.fromEntries(
    Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
  );
  writeFileSync(LOCK, JSON.stringify(lock, null, 2) + '\n');
  console.log(
    missing.length
      ? `complete-lock: added ${missing.map((m) => `${m.name}@${m.version}`).join(', ')}`
      : 'complete-lock: nothing missing',
  );
}
