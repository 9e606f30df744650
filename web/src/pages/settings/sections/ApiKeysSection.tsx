import { type ApiKeyList, apiKeyList, createdApiKey } from '@contracts/apiKeys';
import { useState } from 'react';
import { api } from '../../../api';
import { formatTime } from '../../../format';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Section } from '../../../ui/Section';
import { Field, FieldError, ServerForm } from '../../../ui/ServerForm';
import { ShownOnce } from '../../../ui/ShownOnce';
import { type Resource, useResource } from '../../../ui/useResource';

/** The four scopes (spec: API key), each explained where the key is made. */
const SCOPES: { scope: string; meaning: string }[] = [
  { scope: 'stats:read', meaning: 'Read statistics: the query API and the v1 stats endpoints.' },
  { scope: 'sites:read', meaning: 'Read sites and their set-up: goals, funnels, shields, members.' },
  { scope: 'sites:provision', meaning: 'Create and change sites, goals, funnels, shields; invite people.' },
  { scope: 'webhooks:write', meaning: 'Register webhooks and read their delivery logs.' },
];

/** The limit as typed: blank for the default, digits as a number, anything else as text for the server to refuse by name. */
const hourlyLimit = (typed: string) => (typed.trim() === '' ? null : /^\d+$/.test(typed.trim()) ? Number(typed.trim()) : typed);

/** API keys: made here (or with `svc api-key create`), shown once, revoked with the record kept. */
export function ApiKeysSection({ teamId }: { teamId: number }) {
  const base = `/app/api/teams/${teamId}/api-keys`;
  const keys = useResource((signal) => api.get(base, apiKeyList, signal), [teamId]);
  const [created, setCreated] = useState<string | null>(null);
  return (
    <>
      <Section title="API keys" description="Keys let scripts and tools use the API as this team. Each key is shown once, when it is made.">
        <ErrorNote error={keys.error} />
        {created && <ShownOnce label="Your new API key" value={created} />}
        {keys.data && keys.data.api_keys.length === 0 && <p className="muted">No keys yet.</p>}
        {keys.data && keys.data.api_keys.length > 0 && <KeyTable base={base} keys={keys} list={keys.data} />}
      </Section>
      <CreateKey base={base} keys={keys} setCreated={setCreated} />
    </>
  );
}

/** The team's keys, revoked ones kept with the time they were revoked. */
function KeyTable({ base, keys, list }: { base: string; keys: Resource<ApiKeyList>; list: ApiKeyList }) {
  return (
    <table className="log-table keys-table">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Key</th>
          <th scope="col">Scopes</th>
          <th scope="col" className="num">
            Per hour
          </th>
          <th scope="col">Created</th>
          <th scope="col">Last used</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {list.api_keys.map((key) => (
          <tr key={key.id} className={key.revoked_at ? 'revoked' : undefined}>
            <td className="key-name">{key.name}</td>
            <td data-label="Key">
              <code className="small">{key.prefix}…</code>
            </td>
            <td data-label="Scopes" className="small">
              {key.scopes.join(', ')}
            </td>
            <td data-label="Per hour" className="num">
              {key.hourly_limit.toLocaleString()}
            </td>
            <td data-label="Created" className="small nowrap">
              {formatTime(key.created_at)}
            </td>
            <td data-label="Last used" className="small nowrap">
              {formatTime(key.last_used_at)}
            </td>
            <td className="key-action">
              {key.revoked_at ? (
                <span className="badge badge-muted">revoked {formatTime(key.revoked_at)}</span>
              ) : (
                <ConfirmButton
                  label="Revoke"
                  className="btn btn-small btn-danger"
                  title={`Revoke the key “${key.name}”?`}
                  message="Every request with it is refused from now on, as if it never existed. This cannot be undone."
                  onConfirm={async () => {
                    await api.post(`${base}/${key.id}/revoke`);
                    keys.reload();
                  }}
                />
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A new key: its name, scopes and hourly limit; the key itself is shown once above. */
function CreateKey({ base, keys, setCreated }: { base: string; keys: Resource<ApiKeyList>; setCreated(key: string): void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>(SCOPES.map((s) => s.scope));
  const [limit, setLimit] = useState('');
  return (
    <Section title="Create a key">
      <ServerForm
        submitLabel="Create key"
        onSubmit={async () => {
          const answer = await api.post(base, { name, scopes, hourly_limit: hourlyLimit(limit) }, createdApiKey);
          setCreated(answer.key);
          setName('');
          keys.reload();
        }}
      >
        <Field id="key-name" label="Name" name="name" codes={['invalid_name']}>
          <input value={name} onChange={(event) => setName(event.target.value)} placeholder="Reporting script" />
        </Field>
        <fieldset className="checks">
          <legend>Scopes</legend>
          {SCOPES.map((s) => (
            <label key={s.scope} className="check">
              <input
                type="checkbox"
                checked={scopes.includes(s.scope)}
                onChange={(event) => setScopes(event.target.checked ? [...scopes, s.scope] : scopes.filter((x) => x !== s.scope))}
              />
              <span>
                <code>{s.scope}</code> <span className="muted small">{s.meaning}</span>
              </span>
            </label>
          ))}
          <FieldError name="scopes" codes={['invalid_scope']} />
        </fieldset>
        <Field id="key-limit" label="Requests per hour (optional; default 10,000)" name="hourly_limit" codes={['invalid_hourly_limit']}>
          <input inputMode="numeric" value={limit} onChange={(event) => setLimit(event.target.value)} />
        </Field>
      </ServerForm>
    </Section>
  );
}
