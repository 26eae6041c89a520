import { useCallback, useState } from "react";
import { applyTheme, otherTheme, rememberTheme, storedTheme, type Theme } from "./theme.js";

function localStorageOrUndefined(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/** Applies the remembered theme to the page (call before the first render, so the page never flashes). */
export function applyStoredTheme(): Theme {
  const theme = storedTheme(localStorageOrUndefined());
  applyTheme(document.documentElement, theme);
  return theme;
}

/** The current theme and a function switching to the other one (applied and remembered). */
export function useTheme(): [Theme, () => void] {
  const [theme, setTheme] = useState<Theme>(() => storedTheme(localStorageOrUndefined()));
  const toggle = useCallback(() => {
    setTheme((current) => {
      const next = otherTheme(current);
      applyTheme(document.documentElement, next);
      rememberTheme(localStorageOrUndefined(), next);
      return next;
    });
  }, []);
  return [theme, toggle];
}
