export { BenchmarksPanel, type BenchmarksPanelProps } from "./BenchmarksPanel.js";
export { ConfirmDialog, type ConfirmDialogProps } from "./ConfirmDialog.js";
export {
  type ConnectedDbState,
  connectedDbSlice,
  DEFAULT_CONNECTION,
  dbLabel,
  dbQuery,
} from "./connected-db.js";
export { DatabaseBar } from "./DatabaseBar.js";
export { type DialogTab, DialogTabs, type DialogTabsProps } from "./DialogTabs.js";
export { openAddressedRun } from "./open-addressed-run.js";
