import Link from 'next/link';
import { ProfileForm } from '@/components/settings/ProfileForm';
import { getServices } from '@/lib/api/services';
import { listIdentitiesByOwner, toIdentity } from '@/lib/identity';
import { getSessionKey } from '@/lib/web/session';
import { saveProfile } from './actions';

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
  const identities = (await listIdentitiesByOwner(db, sessionKey)).map(toIdentity);
  return (
    <>
      <h1>Your profiles</h1>
      {identities.length === 0 ? (
        <p className="lead">
          This wallet owns no tags yet. <Link href="/register">Register one</Link>.
        </p>
      ) : (
        <>
          <p className="lead">What people see on your public pages. Changes show up at once.</p>
          {identities.map((identity) => (
            <ProfileForm key={identity.tag} identity={identity} saveProfile={saveProfile} />
          ))}
        </>
      )}
    </>
  );
}
