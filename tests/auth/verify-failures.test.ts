import { beforeAll, describe, expect, inject, it } from 'vitest';
import { stackDatabase } from '../support/database';
import { documentedAnswers } from '../support/documented-answer';
import { postJson } from '../support/http';
import { newKeypair } from '../support/keypair';
import { requestChallenge, verifySigned } from '../support/sign-in';
import { storedMessage, verifyFailures, type SignInService } from './verify-failure-cases';

const appUrl = inject('appUrl');
const database = stackDatabase();

/** The app over HTTP; stored challenges go straight into its database. */
const service: SignInService = {
  get db() {
    return database.db;
  },
  domain: new URL(appUrl).host,
  challenge: (kp) => requestChallenge(appUrl, kp),
  async verifyOnce(attempt) {
    const first = await postJson(`${appUrl}/v1/auth/verify`, attempt);
    expect(first.status).toBe(200);
  },
};

const FAILURES = verifyFailures(service);

describe('every verify failure is the same 401 (SPEC 4.2 rule 3)', () => {
  const bodies = new Map<string, string>();
  let expectDocumented: ReturnType<typeof documentedAnswers>;

  beforeAll(async () => {
    expectDocumented = documentedAnswers(await (await fetch(`${appUrl}/v1/openapi.json`)).json());
  });

  for (const [name, make] of Object.entries(FAILURES)) {
    it(name, async () => {
      const res = await postJson(`${appUrl}/v1/auth/verify`, await make());
      expect(res.status).toBe(401);
      expect(res.json).toEqual({ error: { code: 'unauthorized', message: 'Sign-in failed.' } });
      // as the document says, WWW-Authenticate included (Ajv, as a generated client checks it)
      expectDocumented('/v1/auth/verify', 'post', res);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="v1"');
      bodies.set(name, res.text);
    });
  }

  it('all failure bodies are byte-identical', () => {
    expect(bodies.size).toBe(Object.keys(FAILURES).length);
    expect(new Set(bodies.values()).size).toBe(1);
  });

  it('a correctly signed message whose stored challenge is valid still succeeds (control)', async () => {
    const kp = newKeypair();
    const message = await storedMessage(service, kp);
    const res = await verifySigned(appUrl, kp, message);
    expect(res.status).toBe(200);
  });
});
