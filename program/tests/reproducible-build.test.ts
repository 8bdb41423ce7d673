// Anyone can verify the deployed binary: rebuilding from source gives the committed bytes.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildProgram, COMMITTED_SHA256, COMMITTED_SO } from '@/program/build';

const outDir = mkdtempSync(path.join(tmpdir(), 'tag-registry-build-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('reproducible build', () => {
  it('rebuilds program/tag_registry.so byte for byte, with the committed SHA-256', () => {
    const built = buildProgram({ outDir });
    const committed = readFileSync(COMMITTED_SO);
    const rebuilt = readFileSync(built.soPath);
    expect(rebuilt.equals(committed)).toBe(true);

    const committedSha = createHash('sha256').update(committed).digest('hex');
    expect(built.sha256).toBe(committedSha);
    expect(readFileSync(COMMITTED_SHA256, 'utf8')).toBe(`${committedSha}  tag_registry.so\n`);
    expect(readFileSync(`${built.soPath}.sha256`, 'utf8')).toBe(`${committedSha}  tag_registry.so\n`);
  });
});
