export { ResultsSection } from "./ResultsSection.js";
export { tableViewSlice } from "./table-view.js";
