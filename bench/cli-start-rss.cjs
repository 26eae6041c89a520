// Preloaded by bench/cli-start.ts into the measured CLI process: writes its peak resident set (KB) at exit.
const { writeFileSync } = require("node:fs");

const file = process.env.KARENINA_BENCH_RSS_FILE;
if (file) process.on("exit", () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
