#!/usr/bin/env node
// The installed `karenina` command: runs the compiled CLI (built by `npm run build`, which `npm ci` runs).
import "../dist/cli/main.js";
