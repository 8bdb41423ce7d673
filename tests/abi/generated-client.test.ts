// The committed Codama client (packages/tag-registry/src/generated) is what the IDL renders
// to today: editing program/idl/tag_registry.json without `npm run abi:generate` fails here.
import { describe, expect, it } from 'vitest';
import { committedClient, renderClient } from '@/packages/tag-registry/generate';

describe('packages/tag-registry/src/generated', () => {
  it('is what the IDL renders to, file for file', async () => {
    const rendered = await renderClient();
    const committed = committedClient();
    expect([...committed.keys()]).toEqual([...rendered.keys()]);
    for (const [path, text] of rendered) expect(committed.get(path), path).toBe(text);
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
    expect(committedClient().get('errors/tagRegistry.ts')).not.toContain('Tag is taken');
  });
});
