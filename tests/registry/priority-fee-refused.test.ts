// A cluster that refuses getRecentPrioritizationFees (a JSON-RPC error: some providers do not
// serve it) does not stop a transaction from being built: it is priced at 0 micro-lamports
// per CU, with a warning carrying the request id, and it still lands. The cluster is the
// shared localnet behind a proxy that answers that one method with the error a provider
// gives for a method it does not serve; every other call reaches the localnet unchanged. The
// app's handlers run in this process (tests/support/in-process.ts); its log lines are read here.
import { describe, expect, inject, it } from 'vitest';
import { randomTag } from '@/devstack/identities';
import { readComputeBudget } from '@/lib/chain/compute-budget';
import { registerTagLimit } from '@/lib/chain/compute-units';
import { findTagRecordPda } from '@/packages/tag-registry/src';
import { postAuthed } from '../support/http';
import { loggedLine } from '../observability/support';
import { captureLogs } from '../support/captured-logs';
import { heldInProcessBehindRpcProxy } from '../support/in-process';
import type { RpcCall } from '../support/rpc-proxy';
import { airdrop, decodeWire, PROGRAM_ADDRESS, rpcAt, signerOf } from '../support/chain';
import { afterBudget, landBuilt } from '../support/built-transactions';
import { signIn } from '../support/sign-in';

const rpc = rpcAt(inject('rpcUrl'));
const METHOD_NOT_FOUND = { code: -32601, message: 'Method not found' };
let refusals = 0;
const logs = captureLogs();
const app = heldInProcessBehindRpcProxy((request) => {
  const call = request as RpcCall | undefined;
  if (Array.isArray(request) || call?.method !== 'getRecentPrioritizationFees') return undefined;
  refusals += 1;
  return { json: { jsonrpc: '2.0', id: call.id, error: METHOD_NOT_FOUND } };
});

describe('a cluster that refuses getRecentPrioritizationFees', () => {
  it('POST /v1/register answers 200 with a transaction priced at 0, logs why under the request id, and the transaction lands', async () => {
    const { token, keypair } = await signIn(app().url);
    const owner = await signerOf(keypair);
    await airdrop(rpc, owner.address, 2);
    const tag = randomTag('nofee_');
    const before = refusals;

    const res = await postAuthed(`${app().url}/v1/register`, token, { tag });
    expect(res.status, res.text).toBe(200);
    expect(refusals).toBe(before + 1);
    const { message } = decodeWire(res.json.transaction);
    afterBudget(message);
    const [, bump] = await findTagRecordPda({ tag }, { programAddress: PROGRAM_ADDRESS });
    expect(readComputeBudget(message)).toEqual({
      units: registerTagLimit(tag, bump),
      microLamports: 0,
    });

    const requestId = res.headers.get('x-request-id');
    expect(requestId).toBeTruthy();
    const warning = await loggedLine(
      logs,
      (l) => l.requestId === requestId && String(l.msg).startsWith('priority fee:'),
    );
    expect(warning).toMatchObject({
      level: 'warn',
      msg: 'priority fee: the cluster refused getRecentPrioritizationFees; building at 0 micro-lamports per CU',
      err: { message: expect.stringContaining('Method not found') },
    });

    await landBuilt(rpc, res.json.transaction, owner);
  });
});
