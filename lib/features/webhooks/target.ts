import { lookup } from 'node:dns/promises';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isPublicAddress, literalAddressOf, NonPublicAddressError, publicOnlyLookup } from '@/lib/core/public-address';

/*
 * Webhook targets are URLs their owners chose, fetched by the server: guarded as avatar URLs
 * are (lib/web/server/avatar-image.ts), at creation and again on every delivery. https on port 443,
 * no credentials in the URL, a host on a public address (checked in the connection's own
 * lookup, so DNS rebinding cannot slip through), and no redirect followed: a 3xx is a failed
 * delivery, and a target that redirects is refused at creation.
 *
 * `allowPrivateTargets` (WEBHOOK_ALLOW_PRIVATE_TARGETS=1, never in production) lifts the https,
 * port and address rules, so tests and local development can deliver to http://127.0.0.1.
 */

export interface TargetPolicy {
  allowPrivateTargets: boolean;
}

/** A target URL refused; the message says why, in words for its owner. */
export class TargetRefused extends Error {
  override name = 'TargetRefused';
}

/** The URL, when its form passes the rules (the address of a host name is checked on connecting). */
export function parseTarget(raw: string, policy: TargetPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefused('is not a URL');
  }
  if (url.username || url.password) throw new TargetRefused('must not carry a user name or password');
  if (policy.allowPrivateTargets) {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TargetRefused('must be an http(s) URL');
    return url;
  }
  if (url.protocol !== 'https:') throw new TargetRefused('must be an https URL');
  if (url.port !== '' && url.port !== '443') throw new TargetRefused('must use port 443');
  const literal = literalAddressOf(url);
  if (literal && !isPublicAddress(literal)) throw new TargetRefused(`is not on a public address (${literal})`);
  return url;
}

const REFUSED = 'target refused:';

/**
 * One message for a host name that does not resolve and for one that resolves to a private
 * address: naming the address, or telling the two apart, would let any signed-in caller map
 * the service's internal names (which exist, and where they point).
 */
function hostRefused(hostname: string): string {
  return `names a host that does not resolve to a public address (${hostname})`;
}

/** What one request to a target came to. */
export interface TargetAnswer {
  /** The HTTP status; null when none came. */
  status: number | null;
  /** Why it failed; null for a 2xx. */
  error: string | null;
  latencyMs: number;
}

// Keep-alive: consecutive events to one target reuse a connection (its address was checked
// when it was opened). One pair per policy: the lookup is part of a connection's identity.
const AGENT_OPTIONS = { keepAlive: true, maxSockets: 64, maxFreeSockets: 64 };
const agents = {
  public: { http: new HttpAgent(AGENT_OPTIONS), https: new HttpsAgent(AGENT_OPTIONS) },
  private: { http: new HttpAgent(AGENT_OPTIONS), https: new HttpsAgent(AGENT_OPTIONS) },
};

/** The most of a target's answer read (and thrown away): enough to reuse the connection. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * Sends one request to `url` under the rules above and waits at most `timeoutMs` for the whole
 * answer. Never throws: a refused address, a timeout, a connection error and a non-2xx status
 * all come back as an answer with `error`.
 */
export function sendToTarget(
  url: URL,
  {
    method,
    headers,
    body,
    timeoutMs,
  }: { method: 'POST' | 'HEAD'; headers: Record<string, string>; body?: string; timeoutMs: number },
  policy: TargetPolicy,
): Promise<TargetAnswer> {
  const started = performance.now();
  const answer = (status: number | null, error: string | null): TargetAnswer => ({
    status,
    error,
    latencyMs: Math.round(performance.now() - started),
  });
  try {
    parseTarget(url.href, policy); // again on every delivery: the rules may have changed since creation
  } catch (err) {
    return Promise.resolve(answer(null, `${REFUSED} the URL ${(err as Error).message}`));
  }
  const https = url.protocol === 'https:';
  const pool = policy.allowPrivateTargets ? agents.private : agents.public;
  return new Promise<TargetAnswer>((resolve) => {
    let settled = false;
    const settle = (result: TargetAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve(result);
    };
    const req = (https ? httpsRequest : httpRequest)(
      url,
      {
        method,
        agent: https ? pool.https : pool.http,
        ...(policy.allowPrivateTargets ? {} : { lookup: publicOnlyLookup }),
        headers: {
          'user-agent': 'identity-tag-service-webhooks/1',
          ...headers,
          ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
        },
      },
      (res) =>
        drain(res).then(
          () => settle(answer(res.statusCode ?? null, statusError(res.statusCode ?? 0))),
          (err: Error) => settle(answer(res.statusCode ?? null, err.message)),
        ),
    );
    const deadline = setTimeout(() => {
      settle(answer(null, `no answer within ${timeoutMs} ms`));
      req.destroy();
    }, timeoutMs);
    req.on('error', (err) =>
      settle(
        answer(
          null,
          err instanceof NonPublicAddressError ? `${REFUSED} ${hostRefused(url.hostname)}` : err.message || String(err),
        ),
      ),
    );
    req.end(body);
  });
}

function statusError(status: number): string | null {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) return `answered ${status}: redirects are not followed`;
  return `answered ${status}`;
}

async function drain(res: IncomingMessage): Promise<void> {
  let size = 0;
  for await (const chunk of res) {
    size += (chunk as Buffer).length;
    if (size > MAX_ANSWER_BYTES) {
      res.destroy();
      return;
    }
  }
}

/** The HEAD request that checks a new target: 5 s, the person creating it is waiting for the answer. */
const PROBE_TIMEOUT_MS = 5000;

/**
 * The checks of a new target: its form, every address its host resolves to, and one HEAD
 * request, refused when it answers with a redirect. A target that cannot be reached yet is
 * accepted: deliveries retry until it answers.
 */
export async function checkNewTarget(raw: string, policy: TargetPolicy): Promise<URL> {
  const url = parseTarget(raw, policy);
  if (!policy.allowPrivateTargets && !literalAddressOf(url)) {
    let addresses: { address: string }[];
    try {
      addresses = await lookup(url.hostname, { all: true });
    } catch {
      throw new TargetRefused(hostRefused(url.hostname));
    }
    if (addresses.some((a) => !isPublicAddress(a.address))) throw new TargetRefused(hostRefused(url.hostname));
  }
  const probe = await sendToTarget(url, { method: 'HEAD', headers: {}, timeoutMs: PROBE_TIMEOUT_MS }, policy);
  if (probe.status !== null && probe.status >= 300 && probe.status < 400) {
    throw new TargetRefused(`answers with a redirect (${probe.status}); give the URL it redirects to`);
  }
  if (probe.error?.startsWith(REFUSED)) throw new TargetRefused('is not on a public address');
  return url;
}
