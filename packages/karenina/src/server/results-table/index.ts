export { ResultTableCache } from "./table-cache.js";
