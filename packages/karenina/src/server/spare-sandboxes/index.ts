export { SpareSandboxes } from "./spare-sandboxes.js";
