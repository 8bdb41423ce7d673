import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseWith } from '@/lib/http/parse';
import { AppError } from '@/lib/core/errors';
import { ProfilePatch } from '@/lib/features/identity/schemas';

/*
 * One parser for /v1 bodies and server-action arguments: the action's tuple names the field,
 * never its argument's index, so the settings form and PATCH /v1/identity/{tag} refuse the
 * same patch with the same message.
 */
function refusal(parse: () => unknown): { code: string; message: string } {
  try {
    parse();
  } catch (err) {
    if (err instanceof AppError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error('parsed');
}

const SETTINGS_ARGS = z.tuple([z.string().max(64), ProfilePatch]);

describe('parseWith', () => {
  it('a server action names the field as the /v1 route does', () => {
    const patch = { displayName: 5 };
    const route = refusal(() => parseWith(ProfilePatch, patch));
    expect(route.code).toBe('invalid_request');
    expect(route.message).toMatch(/^`displayName`: /);
    expect(refusal(() => parseWith(SETTINGS_ARGS, ['alice', patch], { skipPath: 1 }))).toEqual(route);
  });

  it('an argument wrong as a whole: the message alone', () => {
    expect(refusal(() => parseWith(SETTINGS_ARGS, ['a'.repeat(65), {}], { skipPath: 1 }))).toEqual({
      code: 'invalid_request',
      message: 'Too big: expected string to have <=64 characters',
    });
  });

  it('returns the parsed value', () => {
    expect(parseWith(SETTINGS_ARGS, ['alice', { bio: null }], { skipPath: 1 })).toEqual(['alice', { bio: null }]);
  });
});
