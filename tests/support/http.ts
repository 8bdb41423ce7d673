/** An HTTP answer read once: status, headers, the body as text and, when it parses, as JSON. */
export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export async function readResponse(res: Response): Promise<ApiResponse> {
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

let clientCounter = 0;
/** A distinct client address per caller, so tests do not share rate-limit buckets. */
export function clientHeaders(): Record<string, string> {
  clientCounter += 1;
  return {
    'content-type': 'application/json',
    'x-forwarded-for': `10.${process.pid % 250}.${(clientCounter >> 8) % 250}.${clientCounter % 250}`,
  };
}

/** POSTs objects as JSON and strings as they are. */
export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = clientHeaders(),
): Promise<ApiResponse> {
  const answer = await readResponse(
    await fetch(url, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) }),
  );
  return withCheckedError(url, 'POST', answer);
}

/**
 * An error answer of a /v1 operation is checked against the OpenAPI document (./error-contract.ts),
 * failing the test that met it when it is not as documented. Loaded only then: the check builds
 * the document from every route.
 */
export async function withCheckedError<A extends ApiResponse>(url: string, method: string, answer: A): Promise<A> {
  if (answer.status >= 400 && new URL(url).pathname.startsWith('/v1/')) {
    const { expectDocumentedErrorAt } = await import('./error-contract');
    expectDocumentedErrorAt(url, method, answer);
  }
  return answer;
}

export async function postAuthed(url: string, token: string | null, body: unknown, headers = clientHeaders()) {
  const res = await fetch(url, {
    method: 'POST',
    headers: token ? { ...headers, authorization: `Bearer ${token}` } : headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const answer = await withCheckedError(url, 'POST', await readResponse(res));
  // Callers read fields of the body directly.
  return { ...answer, json: answer.json as any };
}

export function getIdentity(appUrl: string, tag: string): Promise<Response> {
  return fetch(`${appUrl}/v1/identity/${tag}`, { cache: 'no-store' });
}
