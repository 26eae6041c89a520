export type { SandboxConfinement } from "./confinement-plan.js";
export { SandboxConfinementError } from "./errors.js";
export { NO_CONFINEMENT_TOOLS } from "./host-tools.js";
export { MEMORY_CAP_VARIABLE, PYODIDE_PROCESS_BASE_MB, sandboxMemoryCapMb } from "./memory-cap.js";
export {
  CONFINEMENT_VARIABLE,
  createOsConfinement,
  type HostFacts,
  machineConfinement,
  machineFacts,
  type OsConfinement,
  sandboxConfinement,
  UNCONFINED_WARNING_CODE,
  type WrapOptions,
} from "./os-confinement.js";
