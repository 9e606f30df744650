import { useState } from 'react';
import { api } from '../../api';
import { NEW_PASSWORD_HINT } from '../../ui/passwordRule';
import { Section } from '../../ui/Section';
import { Field, ServerForm } from '../../ui/ServerForm';

export function PasswordSection() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  return (
    <Section title="Password" description="Changing it signs out every other browser signed in as you.">
      <ServerForm
        submitLabel="Change password"
        savedMessage="Password changed. Other browsers signed in as you have been signed out."
        onSubmit={async () => {
          await api.post('/app/api/password', { current_password: current, new_password: next });
          setCurrent('');
          setNext('');
        }}
      >
        <Field id="password-current" label="Current password" name="current_password" codes={['invalid_credentials']}>
          <input type="password" value={current} onChange={(event) => setCurrent(event.target.value)} autoComplete="current-password" />
        </Field>
        <Field id="password-new" label="New password" name="new_password" codes={['weak_password']} hint={NEW_PASSWORD_HINT}>
          <input type="password" value={next} onChange={(event) => setNext(event.target.value)} autoComplete="new-password" />
        </Field>
      </ServerForm>
    </Section>
  );
}
