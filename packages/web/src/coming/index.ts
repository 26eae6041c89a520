export { ComingPanel, type ComingPanelProps } from "./ComingPanel.js";
