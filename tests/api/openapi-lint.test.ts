import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';

/*
 * The served document passes Redocly's lint with its recommended rules, as an integrator's
 * pipeline would run it: public operations say `security: []`, a license, no loopback server,
 * a 4xx on every operation.
 */

const appUrl = inject('appUrl');
const run = promisify(execFile);

type LintReport = {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string }[];
};

describe('GET /v1/openapi.json under `redocly lint --extends recommended`', () => {
  it('has no error and no warning', async () => {
    const res = await fetch(`${appUrl}/v1/openapi.json`);
    expect(res.status).toBe(200);
    const dir = mkdtempSync(path.join(tmpdir(), 'openapi-lint-'));
    try {
      const file = path.join(dir, 'openapi.json');
      writeFileSync(file, await res.text());
      const { stdout } = await run(
        'node_modules/.bin/redocly',
        ['lint', '--extends', 'recommended', '--format', 'json', file],
        {
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
          maxBuffer: 16 * 1024 * 1024,
        },
      ).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
      const report = JSON.parse(stdout) as LintReport;
      expect(report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`)).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a client that accepts no JSON gets the documented 406', async () => {
    const res = await fetch(`${appUrl}/v1/openapi.json`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(406);
    expect(await res.json()).toEqual({
      error: { code: 'not_acceptable', message: 'This document is served as application/json only.' },
    });
  });
});
