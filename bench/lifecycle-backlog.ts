// A backlog of mixed lifecycle transactions on a localnet, for the indexer benchmark.
import { lamports, type Address } from '@solana/kit';
import type { SolanaRpc } from '@/lib/chain/rpc';
import { instructionOf, type LifecycleCall } from '@/devstack/lifecycle-instructions';
import { newNodeSigner, nodeSignedWire, type NodeSigner } from './node-key';

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
  rpc: SolanaRpc,
  programAddress: Address,
  {
    total,
    tags,
    prefix,
    waitFinalized,
  }: { total: number; tags: number; prefix: string; waitFinalized: (signatures: string[]) => Promise<void> },
): Promise<{ signatures: string[]; mix: LifecycleMix }> {
  const signers: NodeSigner[] = [];
  for (let i = 0; i < 16; i++) {
    const signer = newNodeSigner();
    await rpc.requestAirdrop(signer.address, lamports(1_000_000_000_000n)).send();
    signers.push(signer);
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
    const { value: latest } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
    const batch = states.slice(0, Math.min(states.length, total - signatures.length));
    const sent = await Promise.all(
      batch.map((state) => {
        const call = nextCall(state, signers, round);
        // a new payout wallet signs too
        const { instruction, signer, cosigners } = instructionOf(call, programAddress);
        mix[call.kind] += 1;
        const wire = nodeSignedWire([instruction], signer, latest, cosigners);
        return rpc.sendTransaction(wire, { encoding: 'base64', skipPreflight: true }).send();
      }),
    );
    signatures.push(...sent);
    round += 1;
  }
  await waitFinalized(signatures);
  return { signatures, mix };
}

/** The next call on one tag, signed by its first party, and its effect on the model: always one the program accepts. */
function nextCall(state: TagState, signers: NodeSigner[], round: number): LifecycleCall<NodeSigner> {
  const { tag } = state;
  const owner = signers[state.owner]!;
  if (!state.live) {
    state.live = true;
    state.pending = null;
    return { kind: 'register', tag, owner, wallet: owner };
  }
  if (state.pending !== null) {
    const pending = signers[state.pending]!;
    if ((round + state.owner) % 3 === 0) {
      state.pending = null;
      return { kind: 'cancel', tag, owner };
    }
    state.owner = state.pending;
    state.pending = null;
    return { kind: 'accept', tag, newOwner: pending };
  }
  switch ((round + state.owner) % 4) {
    case 0:
    case 1: {
      const to = (state.owner + 1 + (round % (signers.length - 1))) % signers.length;
      state.pending = to;
      return { kind: 'offer', tag, owner, newOwner: signers[to]!.address };
    }
    case 2:
      return { kind: 'set_wallet', tag, owner, wallet: newNodeSigner() };
    default:
      state.live = false;
      return { kind: 'release', tag, owner, receiver: owner.address };
  }
}
