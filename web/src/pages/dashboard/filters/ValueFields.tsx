import type { SiteInfo } from '../context';

/**
 * The values a filter matches, ORed: a goal chosen from the site's goals, or typed text with the
 * dimension's common values suggested.
 */
export function ValueFields({
  id,
  site,
  goal,
  regex,
  values,
  suggestions,
  setValues,
}: {
  id: string;
  site: SiteInfo;
  goal: boolean;
  /** The values are regular expressions (a `matches` operator). */
  regex: boolean;
  values: string[];
  suggestions: string[];
  setValues(values: string[]): void;
}) {
  const edit = (i: number, value: string) => setValues(values.map((v, j) => (j === i ? value : v)));
  return (
    <>
      {values.map((value, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the value inputs are a plain list edited in place
        <div className="field" key={i}>
          <label htmlFor={`${id}-value-${i}`}>{i === 0 ? 'Value' : 'or'}</label>
          {goal ? (
            <select id={`${id}-value-${i}`} value={value} onChange={(event) => edit(i, event.target.value)}>
              <option value="">Choose a goal</option>
              {site.goals.map((g) => (
                <option key={g.id} value={g.display_name}>
                  {g.display_name}
                </option>
              ))}
            </select>
          ) : (
            <input
              id={`${id}-value-${i}`}
              list={`${id}-suggestions`}
              value={value}
              autoComplete="off"
              placeholder={regex ? 'A regular expression' : ''}
              onChange={(event) => edit(i, event.target.value)}
            />
          )}
        </div>
      ))}
      <datalist id={`${id}-suggestions`}>
        {suggestions.map((suggestion) => (
          <option key={suggestion} value={suggestion} />
        ))}
      </datalist>
    </>
  );
}
