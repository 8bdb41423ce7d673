import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema';
import { errorOf } from './errors';

/** The typed /v1 transport: every path, body and answer is checked against the OpenAPI document. */
export type TagApi = Client<paths>;

export function createTagApi(baseUrl: string, fetchImpl?: typeof fetch): TagApi {
  return createClient<paths>({ baseUrl: baseUrl.replace(/\/+$/, ''), fetch: fetchImpl });
}

/** An openapi-fetch answer's data, or a TagServiceError with the envelope's code. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.ok && result.data !== undefined) return result.data;
  throw errorOf(result.response.status, result.error);
}

export function bearer(token: string): { headers: { authorization: string } } {
  return { headers: { authorization: `Bearer ${token}` } };
}
