export { BenchmarkTab } from "./BenchmarkTab.js";
