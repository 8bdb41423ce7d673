import Link from 'next/link';
import { Fragment } from 'react';
import { IncomingOffers } from '@/components/settings/IncomingOffers';
import { ProfileForm } from '@/components/settings/ProfileForm';
import { TagLifecycle } from '@/components/settings/TagLifecycle';
import { getServices } from '@/lib/http/services';
import { toIdentity } from '@/lib/features/identity/identity-response';
import { listIdentitiesByOwner, listTagsOfferedTo } from '@/lib/features/identity/queries';
import { getSessionKey } from '@/lib/web/server/session';
import { saveProfile } from './actions';
import { buildLifecycle } from './lifecycle-actions';

export const metadata = { title: 'Your profiles' };

export default async function SettingsPage() {
  const sessionKey = await getSessionKey();
  if (!sessionKey) {
    return (
      <>
        <h1>Your profiles</h1>
        <p className="lead">Connect your wallet and sign in to edit the profiles of the tags you own.</p>
      </>
    );
  }
  const { db } = await getServices();
  const [owned, offered] = await Promise.all([
    listIdentitiesByOwner(db, sessionKey),
    listTagsOfferedTo(db, sessionKey),
  ]);
  return (
    <>
      <h1>Your profiles</h1>
      <IncomingOffers
        offers={offered.map((row) => ({ tag: row.tag, owner: row.owner }))}
        sessionKey={sessionKey}
        buildLifecycle={buildLifecycle}
      />
      {owned.length === 0 ? (
        <p className="lead">
          This wallet owns no tags yet. <Link href="/register">Register one</Link>.
        </p>
      ) : (
        <>
          <p className="lead">What people see on your public pages. Changes show up at once.</p>
          {owned.map((row) => (
            <Fragment key={row.tag}>
              <ProfileForm identity={toIdentity(row)} saveProfile={saveProfile} />
              <TagLifecycle
                owned={{ tag: row.tag, wallet: row.wallet, pendingOwner: row.pendingOwner }}
                sessionKey={sessionKey}
                buildLifecycle={buildLifecycle}
              />
            </Fragment>
          ))}
        </>
      )}
    </>
  );
}
