import { createSolanaRpc } from '@solana/kit';
import { FeedFollower, type Replica } from './feed';
import { bearer, createTagApi, unwrap, type TagApi } from './http';
import type { components, paths } from './schema';
import { signIn, type Session } from './sign-in';
import type { TagSigner } from './signer';
import { signSendAndSync, type Landed, type SendOptions } from './transactions';

type Schemas = components['schemas'];
type LifecyclePath =
  | '/v1/identity/{tag}/wallet'
  | '/v1/identity/{tag}/transfer'
  | '/v1/identity/{tag}/transfer/cancel'
  | '/v1/identity/{tag}/transfer/accept'
  | '/v1/identity/{tag}/release';
type LifecycleBody<P extends LifecyclePath> = NonNullable<
  paths[P]['post']['requestBody']
>['content']['application/json'];
export type ProfilePatch = Schemas['ProfilePatch'];

export interface TagClientOptions {
  /** The service's origin, e.g. `https://tags.example` or `http://localhost:3000`. */
  baseUrl: string;
  /** Where transactions are sent and confirmed (your own RPC endpoint). */
  rpcUrl: string;
  /** Signs in, and signs every transaction this client builds. */
  signer?: TagSigner;
  fetch?: typeof fetch;
}

export interface RegisterOptions extends SendOptions {
  /** Payout wallet; default the owner. */
  wallet?: string;
  /** A sponsor that pays the fee and the rent; it must be among `cosigners`. */
  feePayer?: string;
}

/**
 * The whole /v1 surface for an app: public reads, and with a signer, sign-in and every
 * on-chain action (build → sign → send → confirm → sync) as one call.
 */
export function createTagClient(options: TagClientOptions) {
  const api: TagApi = createTagApi(options.baseUrl, options.fetch);
  const rpc = createSolanaRpc(options.rpcUrl);
  let session: Session | undefined;

  const signer = (): TagSigner => {
    if (!options.signer) throw new Error('This client has no signer: pass `signer` to createTagClient.');
    return options.signer;
  };
  /** A token that is still good for a minute, signing in again when needed. */
  const auth = async () => {
    if (!session || session.expiresAt.getTime() - Date.now() < 60_000) session = await signIn(api, signer());
    return bearer(session.token);
  };
  const land = async (
    built: { transaction: string; lastValidBlockHeight: string },
    send?: SendOptions,
  ): Promise<Landed> => signSendAndSync(api, rpc, signer(), built, send);
  const tagPath = (tag: string) => ({ params: { path: { tag } } });
  /** One lifecycle builder of the tag: build with its body, then sign, send and sync. */
  const lifecycle = async <P extends LifecyclePath>(
    path: P,
    tag: string,
    body: LifecycleBody<P>,
    send?: SendOptions,
  ) => {
    // The body is typed by the path above; openapi-fetch cannot relate the two for a generic path.
    const init = { ...tagPath(tag), body, ...(await auth()) } as never;
    return land(unwrap(await api.POST(path, init)) as Schemas['LifecycleTransaction'], send);
  };

  return {
    api,
    /** kit's RPC client for `rpcUrl`, where this client sends and confirms. */
    rpc,
    signIn: async () => (session = await signIn(api, signer())),

    identity: async (tag: string) => unwrap(await api.GET('/v1/identity/{tag}', tagPath(tag))),
    resolve: async (tag: string) => unwrap(await api.GET('/v1/resolve/{tag}', tagPath(tag))),
    resolveMany: async (tags: string[]) => unwrap(await api.POST('/v1/resolve', { body: { tags } })).results,
    reverse: async (address: string) =>
      unwrap(await api.GET('/v1/reverse/{address}', { params: { path: { address } } })),
    availability: async (tag: string) => unwrap(await api.GET('/v1/availability/{tag}', tagPath(tag))),
    /** A reference for `amount` (decimal text) of `asset` (`SOL` or a mint) to the tag, its Solana Pay URL and the pending receipt. */
    requestPayment: async (tag: string, amount: string, asset = 'SOL') =>
      unwrap(await api.POST('/v1/payments', { body: { tag, amount, asset } })),
    /** The receipt of a reference: `pending`, `confirmed`, `finalized` or `invalid`. */
    paymentReceipt: async (reference: string) =>
      unwrap(await api.GET('/v1/payments/{reference}', { params: { path: { reference } } })),

    updateProfile: async (tag: string, patch: ProfilePatch) =>
      unwrap(await api.PATCH('/v1/identity/{tag}', { ...tagPath(tag), body: patch, ...(await auth()) })),
    setPrimary: async (tag: string | null) =>
      unwrap(await api.PUT('/v1/primary', { body: { tag }, ...(await auth()) })),

    register: async (tag: string, { wallet, feePayer, ...send }: RegisterOptions = {}) =>
      land(unwrap(await api.POST('/v1/register', { body: { tag, wallet, feePayer }, ...(await auth()) })), send),
    setWallet: async (tag: string, wallet: string, send?: SendOptions & { feePayer?: string }) =>
      lifecycle('/v1/identity/{tag}/wallet', tag, { wallet, feePayer: send?.feePayer }, send),
    offerTransfer: async (tag: string, newOwner: string, send?: SendOptions & { feePayer?: string }) =>
      lifecycle('/v1/identity/{tag}/transfer', tag, { newOwner, feePayer: send?.feePayer }, send),
    cancelTransfer: async (tag: string, send?: SendOptions & { feePayer?: string }) =>
      lifecycle('/v1/identity/{tag}/transfer/cancel', tag, { feePayer: send?.feePayer }, send),
    acceptTransfer: async (tag: string, send?: SendOptions & { feePayer?: string }) =>
      lifecycle('/v1/identity/{tag}/transfer/accept', tag, { feePayer: send?.feePayer }, send),
    release: async (tag: string, send?: SendOptions & { receiver?: string; feePayer?: string }) =>
      lifecycle('/v1/identity/{tag}/release', tag, { receiver: send?.receiver, feePayer: send?.feePayer }, send),

    /** A follower of the change feed, resuming from `saved` (a replica and its cursor) when given. */
    follower: (saved?: Replica) => new FeedFollower(api, saved),
  };
}

export type TagClient = ReturnType<typeof createTagClient>;
