import { type AccountState, recoveryCodes, type TwoFactorSetup, twoFactorSetup } from '@contracts/account';
import { type ReactNode, useState } from 'react';
import { api } from '../../api';
import { CopyButton } from '../../ui/CopyButton';
import { QrCode } from '../../ui/QrCode';
import { Section } from '../../ui/Section';
import { Field, ServerForm } from '../../ui/ServerForm';

/**
 * Two-factor sign-in: set up with a QR code drawn in the page and a first code, ten recovery codes
 * shown once; turned off with the password and a code (src/web/routes/twoFactor.ts).
 */
export function TwoFactorSection({ account, reload }: { account: AccountState; reload(): void }) {
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  let body: ReactNode;
  if (codes) body = <RecoveryCodesShown codes={codes} onDone={() => setCodes(null)} />;
  else if (account.two_factor.enabled) body = <TurnOff codesLeft={account.two_factor.recovery_codes_left} onOff={reload} />;
  else if (setup)
    body = (
      <Confirm
        setup={setup}
        onOn={(shown) => {
          setSetup(null);
          setCodes(shown);
          reload();
        }}
      />
    );
  else body = <Start onStarted={setSetup} />;
  return (
    <Section
      title="Two-factor sign-in"
      description="After your password, sign-in asks for a six-digit code from an authenticator app on your phone (1Password, Google Authenticator, Aegis…)."
    >
      {body}
    </Section>
  );
}

function Start({ onStarted }: { onStarted(setup: TwoFactorSetup): void }) {
  const [password, setPassword] = useState('');
  return (
    <ServerForm
      submitLabel="Set up two-factor sign-in"
      onSubmit={async () => onStarted(await api.post('/app/api/two-factor/setup', { password }, twoFactorSetup))}
    >
      <p className="muted">
        It is <strong>off</strong>.
      </p>
      <Field id="two-factor-password" label="Your password, to begin" name="password" codes={['invalid_credentials']}>
        <input type="password" value={password} onChange={(event) => setPassword(event.target.value)} autoComplete="current-password" />
      </Field>
    </ServerForm>
  );
}

function Confirm({ setup, onOn }: { setup: TwoFactorSetup; onOn(codes: string[]): void }) {
  const [code, setCode] = useState('');
  return (
    <div className="two-factor-setup">
      <QrCode text={setup.uri} label="QR code of the two-factor secret: scan it with your authenticator app" />
      <div className="grow">
        <p>Scan the code with your authenticator app, or type this key into it:</p>
        <div className="copy-row">
          <code className="secret" data-testid="totp-secret">
            {setup.secret.replace(/(.{4})/g, '$1 ').trim()}
          </code>
          <CopyButton text={setup.secret} label="Copy key" />
        </div>
        <ServerForm submitLabel="Turn on" onSubmit={async () => onOn((await api.post('/app/api/two-factor/enable', { code }, recoveryCodes)).recovery_codes)}>
          <Field id="two-factor-code" label="The six-digit code the app shows" name="code" codes={['invalid_code']}>
            <input value={code} onChange={(event) => setCode(event.target.value)} inputMode="numeric" autoComplete="one-time-code" />
          </Field>
        </ServerForm>
      </div>
    </div>
  );
}

function RecoveryCodesShown({ codes, onDone }: { codes: string[]; onDone(): void }) {
  return (
    <div className="shown-once" role="status">
      <p>
        <strong>Two-factor sign-in is on.</strong> Keep these recovery codes somewhere safe: each signs you in once if you lose your phone. They will not be
        shown again.
      </p>
      <ul className="recovery-codes" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="form-actions">
        <CopyButton text={codes.join('\n')} label="Copy codes" />
        <button type="button" className="btn btn-primary" onClick={onDone}>
          I have saved them
        </button>
      </div>
    </div>
  );
}

function TurnOff({ codesLeft, onOff }: { codesLeft: number; onOff(): void }) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  return (
    <>
      <p>
        <span className="badge badge-good">on</span> {codesLeft} of 10 recovery codes left.
      </p>
      <ServerForm
        submitLabel="Turn off two-factor sign-in"
        onSubmit={async () => {
          await api.post('/app/api/two-factor/disable', { password, code });
          onOff();
        }}
      >
        <Field id="two-factor-off-password" label="Your password" name="password" codes={['invalid_credentials']}>
          <input type="password" value={password} onChange={(event) => setPassword(event.target.value)} autoComplete="current-password" />
        </Field>
        <Field id="two-factor-off-code" label="A code from the app, or a recovery code" name="code" codes={['invalid_code']}>
          <input value={code} onChange={(event) => setCode(event.target.value)} autoComplete="one-time-code" />
        </Field>
      </ServerForm>
    </>
  );
}
