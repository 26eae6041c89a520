export { ThemeToggle, type ThemeToggleProps } from "./ThemeToggle.js";
export {
  applyTheme,
  DEFAULT_THEME,
  otherTheme,
  rememberTheme,
  storedTheme,
  THEME_STORAGE_KEY,
  type Theme,
} from "./theme.js";
export { applyStoredTheme, useTheme } from "./use-theme.js";
