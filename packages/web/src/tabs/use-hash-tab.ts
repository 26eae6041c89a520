import { useCallback, useEffect, useState } from "react";
import { hashOf, type TabId, tabOfHash } from "./tabs.js";

/**
 * The active tab, kept in the location hash so reload, deep links and the browser's back button work. At start
 * a hash naming a tab wins; else `fallback` (the restored tab) is shown and written into the hash without a
 * new history entry. `onChange` hears every change (the shell remembers it in the session).
 */
export function useHashTab(fallback: TabId, onChange: (id: TabId) => void): [TabId, (id: TabId) => void] {
  const [active, setActive] = useState<TabId>(() => tabOfHash(window.location.hash) ?? fallback);

  // A start without a tab in the hash (or a hash edited to name none) shows the active tab's route.
  useEffect(() => {
    if (tabOfHash(window.location.hash) === undefined) {
      window.history.replaceState(window.history.state, "", hashOf(active));
    }
  }, [active]);

  useEffect(() => {
    const follow = () => {
      const id = tabOfHash(window.location.hash);
      if (id !== undefined) setActive(id);
    };
    window.addEventListener("hashchange", follow);
    return () => window.removeEventListener("hashchange", follow);
  }, []);

  useEffect(() => onChange(active), [active, onChange]);

  const select = useCallback((id: TabId) => {
    if (tabOfHash(window.location.hash) !== id) window.location.hash = hashOf(id);
    setActive(id);
  }, []);
  return [active, select];
}
