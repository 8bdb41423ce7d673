// A refused registration spends no RPC call it does not need (issue 42 item 5): what needs no
// chain is judged first (a payout key off the curve: no call at all), then what can refuse the
// request (the payout account, the mirror, the tag's record), and the blockhash and the fee
// estimate only for a request that gets its transaction. The cluster is the shared localnet
// behind a proxy that counts each method; the app's handlers run in this process.
import { afterAll, describe, expect, it } from 'vitest';
import { randomTag } from '@/devstack/identities';
import { PROGRAM_ADDRESS, recordAddress } from '../support/chain';
import { postAuthed } from '../support/http';
import { heldInProcessBehindRpcProxy } from '../support/in-process';
import type { RpcCall } from '../support/rpc-proxy';
import { signIn } from '../support/sign-in';
import { closeTestDb, seedIdentity } from '../identity/helpers';

afterAll(closeTestDb);

const calls: string[] = [];
const app = heldInProcessBehindRpcProxy((request) => {
  for (const call of [request].flat() as RpcCall[]) calls.push(String(call?.method));
  return undefined;
});

/** The RPC methods called while `act` runs. */
async function methodsDuring(act: () => Promise<void>): Promise<string[]> {
  const from = calls.length;
  await act();
  return calls.slice(from);
}

describe('POST /v1/register refused', () => {
  it('16 registrations with a payout key off the curve: 400 unsafe_payout, and no RPC call at all', async () => {
    const { token } = await signIn(app().url);
    const offCurve = await recordAddress('some_tag');
    const methods = await methodsDuring(async () => {
      for (let i = 0; i < 16; i++) {
        const res = await postAuthed(`${app().url}/v1/register`, token, {
          tag: randomTag('offc_'),
          wallet: offCurve,
        });
        expect([res.status, res.json.error.reason]).toEqual([400, 'off_curve']);
      }
    });
    expect(methods).toEqual([]);
  });

  it('a payout wallet that is a program: 400 unsafe_payout after one account read, no blockhash or fee call', async () => {
    const { token } = await signIn(app().url);
    const methods = await methodsDuring(async () => {
      const res = await postAuthed(`${app().url}/v1/register`, token, {
        tag: randomTag('prog_'),
        wallet: PROGRAM_ADDRESS,
      });
      expect([res.status, res.json.error.reason]).toEqual([400, 'program']);
    });
    expect(methods).not.toContain('getLatestBlockhash');
    expect(methods).not.toContain('getRecentPrioritizationFees');
  });

  it('a tag the mirror shows taken: 409, no blockhash or fee call', async () => {
    const { token } = await signIn(app().url);
    const row = await seedIdentity();
    const methods = await methodsDuring(async () => {
      const res = await postAuthed(`${app().url}/v1/register`, token, { tag: row.tag.replace(/^@/, '') });
      expect(res.status, res.text).toBe(409);
    });
    expect(methods).not.toContain('getLatestBlockhash');
    expect(methods).not.toContain('getRecentPrioritizationFees');
  });

  it('an accepted one still gets its blockhash and fee estimate', async () => {
    const { token } = await signIn(app().url);
    const methods = await methodsDuring(async () => {
      const res = await postAuthed(`${app().url}/v1/register`, token, { tag: randomTag('okay_') });
      expect(res.status, res.text).toBe(200);
    });
    expect(methods).toEqual(expect.arrayContaining(['getLatestBlockhash', 'getRecentPrioritizationFees']));
  });
});
