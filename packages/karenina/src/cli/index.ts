export { BUNDLED_EXAMPLE, type CliIo, EXIT, runCli } from "./program.js";
