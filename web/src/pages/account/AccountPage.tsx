import { accountState } from '@contracts/account';
import { api } from '../../api';
import { useLocation } from '../../router';
import { ErrorNote } from '../../ui/ErrorNote';
import { Layout } from '../../ui/Layout';
import { useResource } from '../../ui/useResource';
import { DeleteAccountSection } from './DeleteAccountSection';
import { PasswordSection } from './PasswordSection';
import { ProfileSection } from './ProfileSection';
import { SessionsSection } from './SessionsSection';
import { ThemeSection } from './ThemeSection';
import { TwoFactorSection } from './TwoFactorSection';
import '../settings/settings.css';
import './account.css';

/** The signed-in person's own account: name and address, password, two-factor sign-in, sessions, theme, deletion. */
export function AccountPage() {
  const account = useResource((signal) => api.get('/app/api/account', accountState, signal), []);
  const { search } = useLocation();
  const codesLeft = search.get('recovery_codes_left');
  return (
    <Layout title="Account">
      <div className="account">
        <h1>Account</h1>
        {codesLeft !== null && (
          <p className="banner banner-warn" role="status">
            You signed in with a recovery code; {codesLeft} left. If your authenticator is lost, turn two-factor sign-in off and on again below to set up a new
            one with new codes.
          </p>
        )}
        <ErrorNote error={account.error} />
        {account.data && (
          <>
            <ProfileSection account={account.data} reload={account.reload} />
            <PasswordSection />
            <TwoFactorSection account={account.data} reload={account.reload} />
            <SessionsSection />
            <ThemeSection />
            <DeleteAccountSection />
          </>
        )}
      </div>
    </Layout>
  );
}
