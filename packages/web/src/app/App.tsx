import { useCallback } from "react";
import { ConfigDialog } from "../config/index.js";
import { unsavedNotice, useUnsavedCuration } from "../curator/index.js";
import { useSessionSlice } from "../session/index.js";
import { TabBar, type TabId, tabButtonId, tabPanelId, useHashTab } from "../tabs/index.js";
import { Header } from "./Header.js";
import { shellSlice } from "./shell-state.js";
import { TAB_CONTENT } from "./TabPanels.js";

/** The app shell (spec 07 §0): header, numbered tabs with hash routes, the active tab's panel. */
export function App() {
  const [shell, setShell] = useSessionSlice(shellSlice);
  const rememberTab = useCallback(
    (activeTab: TabId) =>
      setShell((state) => (state.activeTab === activeTab ? state : { ...state, activeTab })),
    [setShell],
  );
  const [active, select] = useHashTab(shell.activeTab, rememberTab);
  const curatorNotice = unsavedNotice(useUnsavedCuration());
  const setConfigOpen = (configOpen: boolean) => setShell((state) => ({ ...state, configOpen }));

  return (
    <>
      <Header onOpenConfig={() => setConfigOpen(true)} />
      <nav className="app-nav" aria-label="Sections">
        <TabBar active={active} onSelect={select} notices={{ curate: curatorNotice }} />
      </nav>
      <main className="app-main">
        <div
          className="tab-panel"
          id={tabPanelId(active)}
          role="tabpanel"
          aria-labelledby={tabButtonId(active)}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: WAI-ARIA tabs: the panel is the tab stop after the tab list
          tabIndex={0}
        >
          {TAB_CONTENT[active]()}
        </div>
      </main>
      {shell.configOpen ? <ConfigDialog onClose={() => setConfigOpen(false)} /> : null}
    </>
  );
}
