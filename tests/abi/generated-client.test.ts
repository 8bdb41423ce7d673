// The Codama client written under packages/tag-registry/src/generated (a build output) is what
// the IDL renders to today: editing program/idl/tag_registry.json without `npm run abi:generate` fails here.
import { describe, expect, it } from 'vitest';
import { writtenClient, renderClient } from '@/packages/tag-registry/generate';

describe('packages/tag-registry/src/generated', () => {
  it('is what the IDL renders to, file for file', async () => {
    const rendered = await renderClient();
    const written = writtenClient();
    expect([...written.keys()]).toEqual([...rendered.keys()]);
    for (const [path, text] of rendered) expect(written.get(path), path).toBe(text);
  });

  it('changes when the IDL changes (the check can fail)', async () => {
    const idl = JSON.parse(
      JSON.stringify(await import('@/program/idl/tag_registry.json')).replace(
        '"Tag is already registered"',
        '"Tag is taken"',
      ),
    );
    delete idl.default;
    const rendered = await renderClient(JSON.stringify(idl));
    expect(rendered.get('errors/tagRegistry.ts')).toContain('Tag is taken');
    expect(writtenClient().get('errors/tagRegistry.ts')).not.toContain('Tag is taken');
  });
});
