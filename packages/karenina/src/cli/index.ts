export { BUNDLED_EXAMPLE, type CliIo, EXIT } from "./cli-io.js";
export { runCli } from "./program.js";
export { type RunOutput, runOutput } from "./run-output.js";
