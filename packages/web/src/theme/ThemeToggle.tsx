import type { Theme } from "./theme.js";

export interface ThemeToggleProps {
  readonly theme: Theme;
  readonly onToggle: () => void;
}

/** The header's theme switch: a toggle button, pressed while the dark theme is on. */
export function ThemeToggle({ theme, onToggle }: ThemeToggleProps) {
  return (
    <button
      type="button"
      className="icon-button"
      aria-pressed={theme === "dark"}
      title={theme === "dark" ? "Dark theme is on: switch to light" : "Light theme is on: switch to dark"}
      onClick={onToggle}
    >
      <span aria-hidden="true">{theme === "dark" ? "☾" : "☀"}</span>
      <span className="visually-hidden">Dark theme</span>
    </button>
  );
}
