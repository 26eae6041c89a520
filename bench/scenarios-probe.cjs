// Preloaded by bench/scenarios.ts into the measured `karenina` process: writes, at exit, its own CPU
// (process.cpuUsage(): user + system of every thread of the process, child processes such as the Python
// sandbox not in it) and its peak resident set, as one JSON line. Plain CommonJS so the built CLI runs without
// the tsx loader.
const { writeFileSync } = require("node:fs");

const file = process.env.KARENINA_BENCH_SCENARIOS_PROBE;
if (file)
  process.on("exit", () => {
    const { user, system } = process.cpuUsage();
    const line = { userMs: user / 1000, systemMs: system / 1000, maxRssKb: process.resourceUsage().maxRSS };
    writeFileSync(file, `${JSON.stringify(line)}\n`);
  });
