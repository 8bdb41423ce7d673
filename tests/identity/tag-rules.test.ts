// The service's tag rule against the shared vectors (DESIGN.md "Tags"); the program's side
// of the same file is program/tests/tag-vectors.test.ts.
import { describe, expect, it } from 'vitest';
import vectors from '@/lib/identity/tag-vectors.json';
import { isCanonicalTag, normalizePathTag, normalizeTag, TAG_MAX_BYTES, TAG_MIN_BYTES } from '@/lib/identity/tag';

const nonCanonicalBody = vectors.nonCanonical.filter((v) => !('path' in v && v.path));
const nonCanonicalPath = vectors.nonCanonical.filter((v) => 'path' in v && v.path);

describe('tag vectors: service side', () => {
  it('has cases of every kind', () => {
    expect(vectors.valid.length).toBeGreaterThan(0);
    expect(new Set(vectors.invalid.map((v) => v.error))).toEqual(
      new Set(['TagTooShort', 'TagTooLong', 'TagInvalidChar', 'TagInvalidEdge']),
    );
    expect(nonCanonicalBody.length).toBeGreaterThan(0);
    expect(nonCanonicalPath.length).toBeGreaterThan(0);
  });

  describe.each(vectors.valid)('valid %j', (tag) => {
    it('is canonical and within the byte limits', () => {
      expect(isCanonicalTag(tag)).toBe(true);
      const bytes = Buffer.byteLength(tag, 'utf8');
      expect(bytes).toBeGreaterThanOrEqual(TAG_MIN_BYTES);
      expect(bytes).toBeLessThanOrEqual(TAG_MAX_BYTES);
    });
    it('normalises to itself in body and path form', () => {
      expect(normalizeTag(tag)).toBe(tag);
      expect(normalizePathTag(tag)).toBe(tag);
      expect(normalizePathTag(`@${tag}`)).toBe(tag);
      expect(normalizePathTag(`%40${tag}`)).toBe(tag);
    });
  });

  describe.each(vectors.invalid)('invalid $reason ($error)', ({ tag }) => {
    it('is refused by normalizeTag and normalizePathTag', () => {
      expect(isCanonicalTag(tag)).toBe(false);
      expect(normalizeTag(tag)).toBeNull();
      expect(normalizePathTag(tag)).toBeNull();
      expect(normalizePathTag(`@${tag}`)).toBeNull();
    });
  });

  describe.each(nonCanonicalBody)('non-canonical body input $input', ({ input, tag }) => {
    it(`maps to ${tag} in body and path form`, () => {
      expect(isCanonicalTag(input)).toBe(false);
      expect(normalizeTag(input)).toBe(tag);
      expect(normalizePathTag(input)).toBe(tag);
    });
  });

  describe.each(nonCanonicalPath)('non-canonical path input $input', ({ input, tag }) => {
    it(`maps to ${tag} in path form only`, () => {
      expect(isCanonicalTag(input)).toBe(false);
      expect(normalizePathTag(input)).toBe(tag);
      expect(normalizeTag(input)).toBeNull();
    });
  });
});
