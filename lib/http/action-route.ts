import type { Handler } from '@/lib/http/handler';
import { currentActionHeaders } from '@/lib/features/payments/action-answer';
import type { ServicesProvider } from '@/lib/http/services';

/**
 * The Action's headers for the cluster of `provide`'s configuration; the process's when not
 * given, or when the services cannot be made (the headers must answer whatever the database does).
 */
async function headersOf(provide?: ServicesProvider): Promise<Record<string, string>> {
  const services = provide ? await provide().catch(() => undefined) : undefined;
  return currentActionHeaders(services?.config);
}

/**
 * The outer wrapper of the Action routes and actions.json: every answer (errors, preflights)
 * carries the Actions spec's CORS, version and chain headers, and an error also carries the
 * spec's `{ message }` beside our envelope (`{ message, error: { code, message } }`), so both
 * blink clients and our own clients read it. `provide`: where the route's services come from
 * (lib/http/handler.ts withApi), whose cluster the headers name.
 */
export function withActionHeaders<C>(handler: Handler<C>, provide?: ServicesProvider): Handler<C> {
  return async (req, ctx) => {
    const [response, headers] = await Promise.all([handler(req, ctx), headersOf(provide)]);
    const answer = response.status >= 400 ? await withSpecMessage(response) : response;
    for (const [name, value] of Object.entries(headers)) answer.headers.set(name, value);
    return answer;
  };
}

/** OPTIONS of an Action route: the same headers, no body. */
export async function actionPreflight(provide?: ServicesProvider): Promise<Response> {
  return new Response(null, {
    status: 204,
    headers: { ...(await headersOf(provide)), 'Cache-Control': 'public, max-age=86400' },
  });
}

async function withSpecMessage(response: Response): Promise<Response> {
  const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
  const message = body?.error?.message ?? 'The request failed.';
  return Response.json({ message, ...body }, { status: response.status, headers: response.headers });
}
