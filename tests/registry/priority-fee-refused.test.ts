// A cluster that refuses getRecentPrioritizationFees (a JSON-RPC error: some providers do not
// serve it) does not stop a transaction from being built: it is priced at 0 micro-lamports
// per CU, with a warning carrying the request id, and it still lands. The cluster is the
// shared localnet behind a proxy that answers that one method with the error a provider
// gives for a method it does not serve; every other call reaches the localnet unchanged. The
// app's handlers run in this process (tests/support/in-process.ts); its log lines are read here.
import { Transaction } from '@solana/web3.js';
import { describe, expect, inject, it } from 'vitest';
import { randomTag } from '@/devstack/identities';
import { readComputeBudget } from '@/lib/chain/compute-budget';
import { registerTagLimit } from '@/lib/chain/compute-units';
import { findTagRecordAddress } from '@/packages/tag-registry/src/web3js';
import { connect, fund, PROGRAM_ID, web3Keypair } from '../support/chain';
import { postAuthed } from '../support/http';
import { loggedLine } from '../observability/support';
import { captureLogs } from '../support/captured-logs';
import { heldInProcessBehindRpcProxy } from '../support/in-process';
import type { RpcCall } from '../support/rpc-proxy';
import { afterBudget, landSigned } from '../support/compute-budget';
import { decodeWire } from '../support/kit-chain';
import { signIn } from '../support/sign-in';

const connection = connect(inject('rpcUrl'));
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
    const owner = web3Keypair(keypair);
    await fund(connection, owner.publicKey, 2);
    const tag = randomTag('nofee_');
    const before = refusals;

    const res = await postAuthed(`${app().url}/v1/register`, token, { tag });
    expect(res.status, res.text).toBe(200);
    expect(refusals).toBe(before + 1);
    const tx = Transaction.from(Buffer.from(res.json.transaction, 'base64'));
    afterBudget(tx);
    const [, bump] = findTagRecordAddress(tag, PROGRAM_ID);
    expect(readComputeBudget(decodeWire(res.json.transaction).message)).toEqual({
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

    await landSigned(connection, tx, owner);
  });
});
