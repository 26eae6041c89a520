export { RepairError } from "./errors.js";
export {
  REPAIRED_RUN_NAME,
  type RepairOutcome,
  type RepairRequest,
  repairResults,
  repairStamp,
} from "./repair.js";
export {
  hasSelection,
  type RepairFilters,
  type RepairFiltersInput,
  RepairFiltersSchema,
  repairKey,
  selectRepairRows,
} from "./selection.js";
