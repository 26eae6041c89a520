export { RunSection } from "./RunSection.js";
export { activeJobSlice, runSettingsSlice } from "./run-settings.js";
