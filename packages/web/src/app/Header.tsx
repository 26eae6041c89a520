import { ThemeToggle, useTheme } from "../theme/index.js";

export interface HeaderProps {
  readonly onOpenConfig: () => void;
}

/** The app's header: its name, the configuration (gear) button and the theme toggle. */
export function Header({ onOpenConfig }: HeaderProps) {
  const [theme, toggleTheme] = useTheme();
  return (
    <header className="app-header">
      <h1 className="app-name">karenina</h1>
      <div className="header-actions">
        <button
          type="button"
          className="icon-button"
          aria-label="Configuration"
          title="Configuration"
          onClick={onOpenConfig}
        >
          <span aria-hidden="true">⚙</span>
        </button>
        <ThemeToggle theme={theme} onToggle={toggleTheme} />
      </div>
    </header>
  );
}
