import { EMBED_THEMES } from '@contracts/sharedLinks';
import { useState } from 'react';
import { CopyButton } from '../../../ui/CopyButton';

/** The iframe that shows a shared link inside another site's page, as Plausible's embed code is written. */
export function embedSnippet(url: string, domain: string, theme: string, transparent: boolean): string {
  const src = `${url}&embed=true&theme=${theme}${transparent ? '&background=transparent' : ''}`;
  return `<iframe src="${src}" title="${domain} analytics" loading="lazy" style="width: 1px; min-width: 100%; height: 1600px; border: 0;"></iframe>`;
}

/**
 * A shared link's embed code to copy, with the theme and background to match the host page
 * (docs/dashboard.md "Embedding"). A password-protected link cannot open inside another site:
 * its unlocking cookie is not sent to a frame of another site, so the code says so instead.
 */
export function EmbedCode({ url, domain, passwordProtected }: { url: string; domain: string; passwordProtected: boolean }) {
  const [theme, setTheme] = useState<string>('system');
  const [transparent, setTransparent] = useState(false);
  const snippet = embedSnippet(url, domain, theme, transparent);
  return (
    <details className="embed-code">
      <summary className="small">Embed code</summary>
      {passwordProtected ? (
        <p className="muted small">
          A link with a password cannot be embedded: browsers do not send its unlocking cookie to another site's frame. Embed a link without one.
        </p>
      ) : (
        <>
          <div className="embed-options small">
            <label>
              Theme{' '}
              <select value={theme} onChange={(event) => setTheme(event.target.value)}>
                {EMBED_THEMES.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              <input type="checkbox" checked={transparent} onChange={(event) => setTransparent(event.target.checked)} /> Transparent background
            </label>
          </div>
          <pre className="snippet small">{snippet}</pre>
          <CopyButton text={snippet} label="Copy embed code" />
        </>
      )}
    </details>
  );
}
