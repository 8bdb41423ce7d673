// Sign in with a key, register a tag, set a profile, follow the change feed.
// APP_URL and RPC_URL default to `npm start`'s: http://localhost:3000 and its localnet.
import { airdropFactory, createSolanaRpc, createSolanaRpcSubscriptions, generateKeyPairSigner, lamports } from '@solana/kit';
import { createTagClient, kitSigner } from '../src';

const baseUrl = process.env.APP_URL ?? 'http://localhost:3000';
const rpcUrl = process.env.RPC_URL ?? 'http://127.0.0.1:8899';
const wsUrl = rpcUrl.replace(/^http/, 'ws').replace(/:(\d+)$/, (_, port: string) => `:${Number(port) + 1}`); // PubSub: the next port
const owner = await generateKeyPairSigner();
const airdrop = airdropFactory({ rpc: createSolanaRpc(rpcUrl), rpcSubscriptions: createSolanaRpcSubscriptions(wsUrl) });
await airdrop({ recipientAddress: owner.address, lamports: lamports(1_000_000_000n), commitment: 'confirmed' }); // localnet/devnet only

const client = createTagClient({ baseUrl, rpcUrl, signer: kitSigner(owner) });
const tag = `demo_${Date.now().toString(36)}`;
const { identity } = await client.register(tag); // build → sign → send → confirm → sync
await client.updateProfile(tag, { displayName: 'Demo', bio: 'Registered by the typed client' });
console.log(identity?.tag, 'owned by', identity?.owner);

const follower = client.follower(); // pass a saved { identities, cursor } to resume
// A change is served by the feed a moment after it commits: catch up until ours is there.
while (follower.replica.identities.get(`@${tag}`)?.displayName !== 'Demo') {
  await follower.catchUp();
  await new Promise((resolve) => setTimeout(resolve, 250));
}
console.log(`${follower.replica.identities.size} live tags; ${tag}:`, follower.replica.identities.get(`@${tag}`)?.displayName);
