import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { describe, expect, inject, it } from 'vitest';
import { ownApp } from '../support/app';
import { clientHeaders } from '../support/http';
import { newKeypair } from '../support/keypair';
import { callServerAction } from '../auth/web-session';

/*
 * Body limits before anything is read: next-auth's routes take 16 KB (413 in the
 * envelope), server actions 16 KB (a plain-text 413 the form shows), and /v1 parses only
 * application/json (415 otherwise).
 */

const MB = 1024 * 1024;

/** The resident memory of a process, from /proc (bytes). */
function rss(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (!kb) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) * 1024;
}

/**
 * POSTs `size` bytes to `url`, with a Content-Length or chunked, in 64 KB writes, and stops
 * sending once the answer has come (as a client would whose request was refused).
 */
function postHuge(
  url: string,
  size: number,
  o: { chunked: boolean; contentType: string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let answered = false;
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': o.contentType,
          ...(o.chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(size) }),
        },
      },
      (res) => {
        answered = true;
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (body += d));
        res.on('end', () => {
          resolve({ status: res.statusCode!, body });
          req.destroy();
        });
      },
    );
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    let sent = 0;
    const pump = () => {
      while (!answered && sent < size) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

describe('/api/auth/*: 16 KB, refused before it is read', () => {
  const app = ownApp();

  it('a 50 MB body to /api/auth/callback/solana gets 413 in the envelope, and the server grows by under 20 MB', async () => {
    await fetch(`${app().url}/api/auth/csrf`); // load next-auth's route before the first reading
    const before = rss(app().pid);
    const answers = await Promise.all([
      postHuge(`${app().url}/api/auth/callback/solana`, 50 * MB, {
        chunked: false,
        contentType: 'application/x-www-form-urlencoded',
      }),
      postHuge(`${app().url}/api/auth/callback/solana`, 50 * MB, {
        chunked: true,
        contentType: 'application/x-www-form-urlencoded',
      }),
    ]);
    const growth = rss(app().pid) - before;
    for (const a of answers) {
      expect(a.status).toBe(413);
      expect(JSON.parse(a.body)).toEqual({
        error: { code: 'payload_too_large', message: 'The request body must be at most 16384 bytes.' },
      });
    }
    console.log(`RSS growth after two 50 MB posts (Content-Length and chunked): ${(growth / MB).toFixed(1)} MB`);
    expect(growth).toBeLessThan(20 * MB);
    // and the server still answers
    expect((await fetch(`${app().url}/api/auth/csrf`)).status).toBe(200);
  });

  it('a form just over 16 KB: 413; next-auth’s own small requests pass', async () => {
    const res = await fetch(`${app().url}/api/auth/callback/solana`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `message=${'a'.repeat(16 * 1024)}`,
    });
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe('payload_too_large');
    expect((await fetch(`${app().url}/api/auth/providers`)).status).toBe(200);
  });

  it('a server action over its 16 KB: a plain-text 413 whose text the form shows', async () => {
    const res = await callServerAction(app().url, '/settings', 'saveProfile', [], new Map(), {
      body: JSON.stringify(['@x', { bio: 'b'.repeat(17 * 1024) }]),
    });
    expect(res.status).toBe(413);
    expect(res.contentType).toBe('text/plain');
    expect(res.text).toBe('The form is too large to send (at most 16 KB). Shorten a field and try again.');
  });

  it('a server action under it reaches the action (which answers, here, that no one is signed in)', async () => {
    const res = await callServerAction(
      app().url,
      '/settings',
      'saveProfile',
      ['@x', { bio: 'b'.repeat(8 * 1024) }],
      new Map(),
    );
    expect(res.status).toBe(200);
    expect(res.text).toContain(
      '{"ok":false,"error":{"code":"unauthorized","message":"Sign in with your wallet first."}}',
    );
  });
});

describe('/v1 parses only application/json', () => {
  const appUrl = inject('appUrl');
  const body = JSON.stringify({ pubkey: newKeypair().publicKey });

  it.each([
    ['text/plain', 'text/plain'],
    ['a form', 'application/x-www-form-urlencoded'],
    ['multipart', 'multipart/form-data; boundary=x'],
    ['JSON in another charset', 'application/json; charset=latin1'],
    ['no Content-Type at all', null],
  ])('%s: 415 in the envelope', async (_name, contentType) => {
    const headers: Record<string, string> = { ...clientHeaders() };
    if (contentType === null) delete headers['content-type'];
    else headers['content-type'] = contentType;
    const res = await fetch(`${appUrl}/v1/auth/challenge`, { method: 'POST', headers, body });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({
      error: {
        code: 'unsupported_media_type',
        message: 'The request body must be sent as `Content-Type: application/json`.',
      },
    });
  });

  it.each([['application/json'], ['application/json; charset=utf-8'], ['Application/JSON;charset="UTF-8"']])(
    '%s is parsed',
    async (contentType) => {
      const res = await fetch(`${appUrl}/v1/auth/challenge`, {
        method: 'POST',
        headers: { ...clientHeaders(), 'content-type': contentType },
        body,
      });
      expect(res.status).toBe(200);
    },
  );
});
