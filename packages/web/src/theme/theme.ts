/** Light or dark (spec 07 §3): a `dark` class on the root element; dark by default; remembered in local storage. */
export type Theme = "light" | "dark";

export const THEME_STORAGE_KEY = "karenina-theme";
export const DEFAULT_THEME: Theme = "dark";

/** The remembered theme, or dark when none (or something else) is stored or storage is unavailable. */
export function storedTheme(storage: Pick<Storage, "getItem"> | undefined): Theme {
  try {
    const value = storage?.getItem(THEME_STORAGE_KEY);
    return value === "light" || value === "dark" ? value : DEFAULT_THEME;
  } catch {
    return DEFAULT_THEME;
  }
}

/** Remembers the theme; a storage that refuses (private mode, quota) only loses the memory, not the switch. */
export function rememberTheme(storage: Pick<Storage, "setItem"> | undefined, theme: Theme): void {
  try {
    storage?.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // The theme still applies for this page.
  }
}

/** Shows the theme: the `dark` class and the `color-scheme` the browser's own controls follow. */
export function applyTheme(root: HTMLElement, theme: Theme): void {
  root.classList.toggle("dark", theme === "dark");
  root.style.colorScheme = theme;
}

export function otherTheme(theme: Theme): Theme {
  return theme === "dark" ? "light" : "dark";
}
