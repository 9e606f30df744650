/** A list to pick what a card shows, beside its title (which property, which funnel). */
export function Chooser({
  label,
  names,
  chosen,
  choose,
  disabled = false,
}: {
  label: string;
  names: readonly string[];
  chosen: string;
  choose(name: string): void;
  disabled?: boolean;
}) {
  return (
    <label className="behaviours-chooser">
      <span className="muted small">{label}</span>
      <select value={chosen} disabled={disabled} onChange={(event) => choose(event.target.value)}>
        {names.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </label>
  );
}
