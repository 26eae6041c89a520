import { defineSlice } from "../session/index.js";
import { DEFAULT_TAB, isTabId, type TabId } from "../tabs/index.js";

/** The shell's remembered UI state: which tab was open, and whether the configuration dialog was. */
export interface ShellState {
  readonly activeTab: TabId;
  readonly configOpen: boolean;
}

export const shellSlice = defineSlice<ShellState>({
  key: "shell",
  version: 1,
  initial: { activeTab: DEFAULT_TAB, configOpen: false },
  parse: (stored) => {
    if (typeof stored !== "object" || stored === null) return undefined;
    const { activeTab, configOpen } = stored as Record<string, unknown>;
    return isTabId(activeTab) && typeof configOpen === "boolean" ? { activeTab, configOpen } : undefined;
  },
});
