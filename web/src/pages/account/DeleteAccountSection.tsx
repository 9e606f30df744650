import { useState } from 'react';
import { api } from '../../api';
import { navigate } from '../../router';
import { useSession } from '../../session';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { Section } from '../../ui/Section';

/**
 * Deleting one's own account, behind the password and a confirmation. The server refuses, with a
 * sentence naming the team, while the person owns a team that has other members or sites.
 */
export function DeleteAccountSection() {
  const { refresh } = useSession();
  const [password, setPassword] = useState('');
  return (
    <Section
      title="Delete account"
      danger
      description="Your account, its sessions and API keys are deleted, with any team you own that holds nothing else. A team with other members or sites needs a new owner first (Team settings › Members)."
    >
      <div className="settings-form">
        <div className="field">
          <label htmlFor="delete-password">Your password, to confirm</label>
          <input id="delete-password" type="password" value={password} onChange={(event) => setPassword(event.target.value)} autoComplete="current-password" />
        </div>
        <div className="form-actions">
          <ConfirmButton
            label="Delete my account"
            title="Delete your account?"
            message="This cannot be undone: you will be signed out and your account removed."
            onConfirm={async () => {
              await api.post('/app/api/account/delete', { password });
              await refresh();
              navigate('/login', { replace: true });
            }}
          />
        </div>
      </div>
    </Section>
  );
}
