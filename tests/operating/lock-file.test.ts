import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
// @ts-expect-error a plain ES module script without types
import { missingOptionalEntries } from '../../scripts/complete-lock.mjs';

// `npm ci` refuses a lock that lacks an entry for any optional dependency of a locked package
// ("Missing: litesvm-darwin-arm64@ from lock file"), even one for another platform. The
// registry reached from here does not carry every platform's build, so `npm install` leaves
// them out; scripts/complete-lock.mjs adds them back.
it('package-lock.json names every platform build an optional dependency asks for (npm ci accepts it)', () => {
  const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
  expect(missingOptionalEntries(lock)).toEqual([]);
});

it('the check finds an entry that is missing (the control)', () => {
  const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
  delete lock.packages['node_modules/litesvm-darwin-arm64'];
  expect(missingOptionalEntries(lock)).toEqual([{ name: 'litesvm-darwin-arm64', version: '1.5.0' }]);
});
