import { type SelectHTMLAttributes, useMemo } from 'react';
import { choiceOf, isOffered, timeZoneGroups } from './timeZoneChoices';

/**
 * The time-zone picker of site creation and site settings: zones grouped by region with their
 * offsets today. A site kept on an old name (Asia/Calcutta) shows it first, so it stays chosen
 * until another zone is picked. Other attributes (id, aria-…) go to the <select>, as a Field gives them.
 */
export function TimeZoneSelect({
  value,
  onZone,
  ...rest
}: Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange'> & { value: string; onZone(zone: string): void }) {
  const groups = useMemo(() => timeZoneGroups(Date.now()), []);
  return (
    <select {...rest} value={value} onChange={(event) => onZone(event.target.value)}>
      {!isOffered(value) && <option value={value}>{choiceOf(value, Date.now(), value).label}</option>}
      {groups.map((group) => (
        <optgroup key={group.region} label={group.region}>
          {group.choices.map((choice) => (
            <option key={choice.zone} value={choice.zone}>
              {choice.label}
            </option>
          ))}
        </optgroup>
      ))}
    </select>
  );
}
