import { useState } from 'react';
import { chooseTheme, chosenTheme, THEMES, type Theme } from '../../theme';
import { Section } from '../../ui/Section';

const LABELS: Record<Theme, string> = { light: 'Light', dark: 'Dark', system: 'As the system' };

/** Light, dark or the system's theme, applied at once and remembered in this browser (theme.ts). */
export function ThemeSection() {
  const [theme, setTheme] = useState(chosenTheme);
  return (
    <Section title="Theme" description="How the app looks in this browser: light, dark, or following your system's setting.">
      <fieldset className="choice-row">
        <legend className="visually-hidden">Theme</legend>
        {THEMES.map((choice) => (
          <label key={choice} className={`choice${theme === choice ? ' chosen' : ''}`}>
            <input
              type="radio"
              name="theme"
              value={choice}
              checked={theme === choice}
              onChange={() => {
                chooseTheme(choice);
                setTheme(choice);
              }}
            />
            {LABELS[choice]}
          </label>
        ))}
      </fieldset>
    </Section>
  );
}
