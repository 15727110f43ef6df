import { useStore } from '../../state/store.ts';
import type { Theme } from '../../state/types.ts';

const OPTIONS: { id: Theme; label: string; title: string }[] = [
  { id: 'system', label: 'Auto', title: 'Follow the operating system' },
  { id: 'light', label: 'Light', title: 'Light theme' },
  { id: 'dark', label: 'Dark', title: 'Dark theme' },
];

/** Light / dark / follow the OS: a three-way segmented control. */
export function ThemeSwitch() {
  const theme = useStore((s) => s.view.theme);
  const setTheme = useStore((s) => s.viewActions.setTheme);
  return (
    <fieldset className="segmented" aria-label="Theme" data-testid="theme-switch">
      {OPTIONS.map((o) => (
        <button
          key={o.id}
          type="button"
          title={o.title}
          aria-pressed={theme === o.id}
          data-theme-option={o.id}
          onClick={() => setTheme(o.id)}
        >
          {o.label}
        </button>
      ))}
    </fieldset>
  );
}
