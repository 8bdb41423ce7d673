// The service's tag rule against the shared vectors (DESIGN.md "Tags"); the program's side
// of the same file is program/tests/tag-vectors.test.ts.
import { describe, expect, it } from 'vitest';
import vectors from '@/lib/core/tag-vectors.json';
import {
  isCanonicalTag,
  normalizePathTag,
  normalizeTag,
  TAG_MAX_BYTES,
  TAG_MIN_BYTES,
  TagBody,
  TagPath,
} from '@/lib/core/tag';

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

describe('non-ASCII input is refused before case folding (hardening)', () => {
  // U+212A KELVIN SIGN lower-cases to ASCII `k`; U+0130 to `i` plus a combining dot.
  it.each(['\u212Aate', 'ali\u212Ae', '\u0130nes', 'alice\u00a0', 'ali\uff43e'])('%j', (input) => {
    expect(normalizeTag(input)).toBeNull();
    expect(normalizePathTag(input)).toBeNull();
    expect(normalizePathTag(`@${input}`)).toBeNull();
    expect(TagBody.safeParse(input).success).toBe(false);
    expect(TagPath.safeParse(input).success).toBe(false);
  });
});

describe('TagBody and TagPath (the one schema of each)', () => {
  it('parse to the canonical tag', () => {
    expect(TagBody.parse('  Alice_1 ')).toBe('alice_1');
    expect(TagPath.parse('@Alice_1')).toBe('alice_1');
    expect(TagPath.parse('%40alice')).toBe('alice');
  });
  it('refuse a leading @ in a body, and malformed tags, naming the rule', () => {
    const body = TagBody.safeParse('@alice');
    expect(body.success).toBe(false);
    expect(body.error?.issues[0]?.message).toBe('must be a tag: 3–32 of a-z, 0-9 and _, not starting or ending with _');
    expect(TagPath.safeParse('a').success).toBe(false);
  });
});
