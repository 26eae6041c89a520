#!/usr/bin/env node
import { runCli } from "./program.js";

// The process started at performance.timeOrigin: a run's reported wall time includes Node's start-up and
// the loading of the CLI's modules, as the user waits for them.
process.exitCode = await runCli(process.argv.slice(2), undefined, performance.timeOrigin);
