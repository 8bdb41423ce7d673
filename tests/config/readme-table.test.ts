import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_TABLE_END, CONFIG_TABLE_START, configTables, withConfigTables } from '@/lib/core/config-table';
import { envSchema } from '@/lib/core/config';
import { RATE_LIMIT_BUCKET_NAMES } from '@/lib/core/rate-limit-buckets';

/*
 * The README's configuration tables are generated from the schema and the rate-limit buckets:
 * this fails when someone changes one without the other.
 */
describe('README "Configuration"', () => {
  const readme = readFileSync('README.md', 'utf8');

  it('holds the tables lib/core/config.ts and lib/core/rate-limit-buckets.ts generate', () => {
    const section = readme.slice(readme.indexOf(CONFIG_TABLE_START) + CONFIG_TABLE_START.length, readme.indexOf(CONFIG_TABLE_END));
    expect(section.trim(), 'README.md\'s configuration tables differ from the schema: run `npm run config:readme` and commit README.md').toBe(configTables());
  });

  it('names every variable of the schema and every bucket, once', () => {
    const firstCells = configTables()
      .split('\n')
      .flatMap((line) => /^\| `(\w+)` \|/.exec(line)?.slice(1) ?? []);
    expect(firstCells).toEqual([...Object.keys(envSchema.shape), ...RATE_LIMIT_BUCKET_NAMES]);
  });

  it('regenerating an up-to-date README changes nothing', () => {
    expect(withConfigTables(readme)).toBe(readme);
  });

  it('a README without the markers is refused, naming them', () => {
    expect(() => withConfigTables('# no tables here')).toThrow(CONFIG_TABLE_START);
  });
});
