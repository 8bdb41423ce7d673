import 'client-only';
/**
 * The errors the pages' own code throws (wallet-adapter's convention: one class per failure,
 * `name` set as a field so it survives minification). Code that reacts to a failure checks
 * the class, never the wording of a message. Program errors are not here: they are matched
 * by code through packages/tag-registry (`hasTagRegistryError`).
 */

export class ClientError extends Error {
  override name = 'ClientError';
}

/** No wallet is connected, or it exposes no public key. */
export class WalletNotConnectedError extends ClientError {
  override name = 'WalletNotConnectedError';
  constructor(message = 'Connect a wallet first.') {
    super(message);
  }
}

/** The connected wallet lacks the feature a step needs (signing messages or transactions). */
export class WalletCannotSignError extends ClientError {
  override name = 'WalletCannotSignError';
  constructor(readonly feature: 'signMessage' | 'signTransaction') {
    super(
      feature === 'signMessage'
        ? 'This wallet cannot sign messages, so it cannot sign in.'
        : 'Connect a wallet that can sign transactions, then retry.',
    );
  }
}

/**
 * The transaction still needs another account's signature (a payout wallet other than the
 * owner signs too): the person switches accounts in the wallet (Phantom and Solflare hold
 * several) and continues; what was signed so far is kept.
 */
export class AnotherSignerNeededError extends ClientError {
  override name = 'AnotherSignerNeededError';
  constructor(
    /** The keys whose signature is missing. */
    readonly missing: readonly string[],
    /** The key just connected, when it signed nothing new (it is not one of `missing`). */
    readonly connected: string | null = null,
  ) {
    super(`The transaction also needs the signature of ${missing.join(', ')}.`);
  }
}

/** The connected wallet is not the one the session belongs to. */
export class WalletMismatchError extends ClientError {
  override name = 'WalletMismatchError';
  constructor(
    readonly sessionKey: string,
    readonly walletKey: string,
  ) {
    super(`The session belongs to ${sessionKey}, but the connected wallet is ${walletKey}.`);
  }
}

/** The person declined the sign-in request in the wallet. */
export class SignInRefusedError extends ClientError {
  override name = 'SignInRefusedError';
  constructor(options?: { cause?: unknown }) {
    super('You declined the sign-in request in your wallet.', options);
  }
}

/** The person declined to sign a transaction in the wallet. */
export class TransactionRefusedError extends ClientError {
  override name = 'TransactionRefusedError';
  constructor(options?: { cause?: unknown }) {
    super('You declined the request in your wallet. Nothing was sent.', options);
  }
}

/**
 * The wallet's Sign-In With Solana signed a text other than the server's challenge (another
 * account, or fields it added): the server would refuse it, so it is never sent.
 */
export class SignedMessageMismatchError extends ClientError {
  override name = 'SignedMessageMismatchError';
  constructor() {
    super('The wallet signed a different message than the sign-in challenge, so it was not sent.');
  }
}

/** The server refused the signed challenge (expired, used, or not this key's). */
export class SignInRejectedError extends ClientError {
  override name = 'SignInRejectedError';
  constructor() {
    super('Sign-in failed. Try again.');
  }
}

/**
 * The server answered with its error envelope `{ error: { code, message } }` (a /v1 route or
 * a server action); `code` is the envelope's, `status` the HTTP status when there was one.
 */
export class ServiceError extends ClientError {
  override name = 'ServiceError';
  constructor(
    readonly code: string,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The transaction landed but failed on chain; `err` is the cluster's TransactionError. */
export class TransactionFailedError extends ClientError {
  override name = 'TransactionFailedError';
  constructor(readonly err: unknown) {
    super(`The transaction failed on chain (${JSON.stringify(err)}); nothing changed.`);
  }
}

/**
 * The cluster passed the build's lastValidBlockHeight before the transaction was confirmed:
 * it can no longer land, so the flow builds a fresh one.
 */
export class BlockHeightExceededError extends ClientError {
  override name = 'BlockHeightExceededError';
  constructor(readonly signature: string) {
    super(`Transaction ${signature} expired: the cluster passed its last valid block height.`);
  }
}

/**
 * The cluster's JSON-RPC answered an error. `logs` and `err` are the preflight simulation's
 * (its log lines and the `{ InstructionError: … }` shape) when the send was refused there,
 * where packages/tag-registry's `tagRegistryErrorOf` finds the registry's code.
 */
export class RpcError extends ClientError {
  override name = 'RpcError';
  constructor(
    readonly code: number,
    message: string,
    readonly logs?: readonly string[],
    readonly err?: unknown,
  ) {
    super(message);
  }
}

/** POST /v1/sync kept answering 202: the transaction is not final yet. */
export class IndexPendingError extends ClientError {
  override name = 'IndexPendingError';
  constructor() {
    super('The transaction landed but is not final yet.');
  }
}
