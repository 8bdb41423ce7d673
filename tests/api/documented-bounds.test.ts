import { describe, expect, it } from 'vitest';
import { v1Routes } from '@/app/v1/v1-routes';
import { createOpenApiDocument } from '@/lib/http/openapi';
import { MAX_FEED_LIMIT } from '@/lib/features/feed/read-events';
import { heldInProcessApp } from '../support/in-process';
import { actionHeaders } from '@/lib/features/payments/pay-action';

// What clients nobody here wrote tripped on: a documented bound the server refuses, a failure
// status filed under the wrong class, a CORS header naming a method that answers 405 or hiding
// a header the answer carries.
type Doc = {
  paths: Record<
    string,
    Record<string, { parameters?: { name: string; in: string; schema: Record<string, unknown> }[] }>
  >;
  webhooks: Record<string, { post: { responses: Record<string, unknown> } }>;
};
const doc = createOpenApiDocument(v1Routes()) as unknown as Doc;

describe('the document says what the server accepts', () => {
  const app = heldInProcessApp();

  it("GET /v1/events's limit is an integer from 1 to the maximum, and the server answers exactly that", async () => {
    const limit = doc.paths['/v1/events']!.get!.parameters!.find((p) => p.name === 'limit')!;
    expect(limit.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: MAX_FEED_LIMIT });
    expect(limit.schema).not.toHaveProperty('pattern');
    for (const [value, status] of [
      ['1', 200],
      [String(MAX_FEED_LIMIT), 200],
      ['0', 400],
      [String(MAX_FEED_LIMIT + 1), 400],
      ['1.5', 400],
    ] as const) {
      expect((await app().fetch(`/v1/events?limit=${value}`)).status, `limit=${value}`).toBe(status);
    }
  });

  it('the webhook document files every failed attempt (3xx, 4xx, 5xx, none) under default, not 4XX', () => {
    const responses = Object.values(doc.webhooks)[0]!.post.responses;
    expect(Object.keys(responses).sort()).toEqual(['2XX', 'default']);
  });
});

describe("the Action's CORS headers", () => {
  const headers = actionHeaders('solana:test');

  it('list only the methods the Action answers', () => {
    expect(headers['Access-Control-Allow-Methods']!.split(',').sort()).toEqual(['GET', 'OPTIONS', 'POST']);
  });

  it('expose X-Indexed-Slot, which the GET sends, to browsers on other origins', () => {
    expect(headers['Access-Control-Expose-Headers']!.split(/,\s*/)).toContain('X-Indexed-Slot');
  });
});
