import { getServices } from '@/lib/http/services';
import { getIdentity, parseTagParam } from '@/lib/features/identity/get-identity';
import { getSessionKey } from '@/lib/web/server/session';
import { issueCharge } from './actions';
import { Till } from './Till';

/*
 * The till (/charge/{tag}): the tag's signed-in owner enters an amount, shows the customer a QR
 * code of a Solana Pay transfer request with a fresh reference, and sees it turn green when the
 * receipt is confirmed (GET /v1/payments/{reference}). Under the app's layout, where signing in
 * lives: `/@tag` itself is a route handler that serves the profile outside it.
 */

export const metadata = { title: 'Till' };
export const dynamic = 'force-dynamic';

export default async function ChargePage({ params }: { params: Promise<{ tag: string }> }) {
  const raw = decodeURIComponent((await params).tag);
  let tag: string;
  let owner: string;
  try {
    const identity = await getIdentity((await getServices()).db, parseTagParam(raw));
    tag = identity.tag;
    owner = identity.owner;
  } catch {
    return (
      <>
        <h1>Till</h1>
        <p className="lead">No tag {raw.startsWith('@') ? raw : `@${raw}`} is registered here.</p>
      </>
    );
  }
  const sessionKey = await getSessionKey();
  if (sessionKey !== owner) {
    return (
      <>
        <h1>Till for {tag}</h1>
        <p className="lead" role="alert">
          {sessionKey
            ? `This wallet does not own ${tag}: only its owner can take payments here.`
            : `Connect the wallet that owns ${tag} and sign in to take payments here.`}
        </p>
      </>
    );
  }
  return (
    <>
      <h1>Till for {tag}</h1>
      <p className="lead">Enter an amount, show the code to the customer, and wait for it to turn green.</p>
      <Till tag={tag} issueCharge={issueCharge} />
    </>
  );
}
