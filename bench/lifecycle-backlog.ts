// A backlog of mixed lifecycle transactions on a localnet, for the indexer benchmark.
import { sign, type KeyObject } from 'node:crypto';
import { Keypair, LAMPORTS_PER_SOL, Transaction, type Connection, type PublicKey } from '@solana/web3.js';
import { instructionOf, type LifecycleCall } from '@/devstack/lifecycle-calls';
import { nodeKey } from './node-key';

interface Signer {
  keypair: Keypair;
  key: KeyObject;
}

interface TagState {
  tag: string;
  owner: number;
  pending: number | null;
  live: boolean;
}

export type LifecycleMix = Record<LifecycleCall['kind'], number>;

/**
 * `total` successful transactions of the program: `tags` registrations, then rounds of one
 * call per tag (a wallet change, an offer, its cancel or accept, a release, a registration
 * again), the calls of a round in flight together (each on its own tag), each round on a fresh
 * blockhash. Resolves once every one is finalized, with the mix sent.
 */
export async function lifecycleBacklog(
  connection: Connection,
  programId: PublicKey,
  {
    total,
    tags,
    prefix,
    waitFinalized,
  }: { total: number; tags: number; prefix: string; waitFinalized: (signatures: string[]) => Promise<void> },
): Promise<{ signatures: string[]; mix: LifecycleMix }> {
  const signers: Signer[] = [];
  for (let i = 0; i < 16; i++) {
    const keypair = Keypair.generate();
    await connection.requestAirdrop(keypair.publicKey, 1000 * LAMPORTS_PER_SOL);
    signers.push({ keypair, key: nodeKey(keypair) });
  }
  const states: TagState[] = Array.from({ length: tags }, (_, i) => ({
    tag: `${prefix}${i}`,
    owner: i % signers.length,
    pending: null,
    live: false,
  }));
  const mix: LifecycleMix = { register: 0, set_wallet: 0, offer: 0, cancel: 0, accept: 0, release: 0 };
  const signatures: string[] = [];
  let round = 0;
  while (signatures.length < total) {
    const latest = await connection.getLatestBlockhash('confirmed');
    const batch = states.slice(0, Math.min(states.length, total - signatures.length));
    const sent = await Promise.all(
      batch.map((state) => {
        const { call, signer } = nextCall(state, signers, round);
        const { instruction, cosigners } = instructionOf(call, programId);
        mix[call.kind] += 1;
        const tx = new Transaction({ feePayer: signer.keypair.publicKey, ...latest }).add(instruction);
        tx.addSignature(signer.keypair.publicKey, sign(null, tx.serializeMessage(), signer.key));
        if (cosigners.length) tx.partialSign(...cosigners); // a new payout wallet signs too
        return connection.sendRawTransaction(tx.serialize({ verifySignatures: false }), { skipPreflight: true });
      }),
    );
    signatures.push(...sent);
    round += 1;
  }
  await waitFinalized(signatures);
  return { signatures, mix };
}

/** The next call on one tag and who signs it, and its effect on the model: always one the program accepts. */
function nextCall(state: TagState, signers: Signer[], round: number): { call: LifecycleCall; signer: Signer } {
  const { tag } = state;
  const owner = signers[state.owner]!;
  if (!state.live) {
    state.live = true;
    state.pending = null;
    return { call: { kind: 'register', tag, owner: owner.keypair, wallet: owner.keypair }, signer: owner };
  }
  if (state.pending !== null) {
    const pending = signers[state.pending]!;
    if ((round + state.owner) % 3 === 0) {
      state.pending = null;
      return { call: { kind: 'cancel', tag, owner: owner.keypair }, signer: owner };
    }
    state.owner = state.pending;
    state.pending = null;
    return { call: { kind: 'accept', tag, newOwner: pending.keypair }, signer: pending };
  }
  switch ((round + state.owner) % 4) {
    case 0:
    case 1: {
      const to = (state.owner + 1 + (round % (signers.length - 1))) % signers.length;
      state.pending = to;
      return {
        call: { kind: 'offer', tag, owner: owner.keypair, newOwner: signers[to]!.keypair.publicKey },
        signer: owner,
      };
    }
    case 2:
      return { call: { kind: 'set_wallet', tag, owner: owner.keypair, wallet: Keypair.generate() }, signer: owner };
    default:
      state.live = false;
      return { call: { kind: 'release', tag, owner: owner.keypair, receiver: owner.keypair.publicKey }, signer: owner };
  }
}
