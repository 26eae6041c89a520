export {
  type WorkingBenchmark,
  type WorkingBenchmarkState,
  workingBenchmarkSlice,
} from "./working-benchmark.js";
