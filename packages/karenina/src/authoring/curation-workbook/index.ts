export { CURATION_COLUMNS, type CurationRow, type CurationStatus, curationRows } from "./curation-rows.js";
export { type CurationSummary, exportCurationWorkbook } from "./curation-workbook.js";
