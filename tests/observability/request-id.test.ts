import { describe, expect, it } from 'vitest';
import { newRequestId } from '@/lib/observability/request-id';

describe('new request ids', () => {
  it('are version 4 UUIDs, all different, across many draws of entropy', () => {
    const ids = Array.from({ length: 1000 }, () => newRequestId()); // several draws of 128
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('spread over every hex digit outside the fixed version and variant bits', () => {
    const ids = Array.from({ length: 2000 }, () => newRequestId().replaceAll('-', ''));
    // each free position takes many values: a constant or a counter would not
    for (const position of [0, 7, 13, 17, 31]) {
      expect(new Set(ids.map((id) => id[position])).size).toBeGreaterThan(12);
    }
    expect(new Set(ids.map((id) => id[12]))).toEqual(new Set(['4'])); // the version
    expect(new Set(ids.map((id) => id[16]))).toEqual(new Set(['8', '9', 'a', 'b'])); // the variant
  });
});
