export { Heatmap, type HeatmapProps } from "./Heatmap.js";
export { SummaryPanel, type SummaryPanelProps } from "./SummaryPanel.js";
export type { SummaryFilter } from "./summary-figures.js";
