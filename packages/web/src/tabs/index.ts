export { TabBar, type TabBarProps, tabButtonId, tabPanelId } from "./TabBar.js";
export {
  DEFAULT_TAB,
  hashOf,
  isTabId,
  TABS,
  type Tab,
  type TabId,
  tabIndexAfterKey,
  tabOfHash,
} from "./tabs.js";
export { useHashTab } from "./use-hash-tab.js";
